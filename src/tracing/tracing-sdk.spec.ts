import { tracingSchema } from '../config/tracing.schema';
import { applyConfigDefaults, tracingWanted } from './tracing-sdk';

const config = (values: object = {}) => tracingSchema.parse(values);

describe('tracingWanted', () => {
  it('is off by default, on with the config or any standard variable that asks for an exporter', () => {
    expect(tracingWanted(config(), {})).toBe(false);
    expect(tracingWanted(config({ enabled: true }), {})).toBe(true);
    expect(tracingWanted(config(), { OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingWanted(config(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted(config(), { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
  });

  it('is off when the standard variables say so, whatever the config', () => {
    expect(tracingWanted(config({ enabled: true }), { OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted(config({ enabled: true }), { OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('takes an empty variable for an unset one (Compose passes ${VAR:-} through so)', () => {
    expect(tracingWanted(config(), { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_TRACES_EXPORTER: ' ' })).toBe(false);
  });
});

describe('applyConfigDefaults', () => {
  it('gives the config as the OTEL_* defaults: a variable set wins, an empty one does not', () => {
    const env: NodeJS.ProcessEnv = { OTEL_SERVICE_NAME: '', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' };
    applyConfigDefaults(config({ endpoint: 'http://collector:4318', service_name: 'edge', sample_ratio: 0.25 }), env);
    expect(env).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'edge',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
  });
});

describe('[tracing]', () => {
  it('refuses a trace URL without {trace_id}, naming what it needs', () => {
    expect(() => config({ trace_url: 'http://jaeger:16686/trace/' })).toThrow(/\{trace_id\}/);
    expect(config({ trace_url: 'http://jaeger:16686/trace/{trace_id}' }).trace_url).toBe(
      'http://jaeger:16686/trace/{trace_id}',
    );
  });
});
