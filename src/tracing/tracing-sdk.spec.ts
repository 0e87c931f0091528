import { tracingSchema } from '../config/tracing.schema';
import { tracingWanted } from './tracing-sdk';

const config = (values: object = {}) => tracingSchema.parse(values);

describe('tracingWanted', () => {
  it('is off by default, on with the config or any standard variable that asks for an exporter', () => {
    expect(tracingWanted(config(), {})).toBe(false);
    expect(tracingWanted(config({ enabled: true }), {})).toBe(true);
    expect(tracingWanted(config(), { OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingWanted(config(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted(config(), { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
  });

  it('is off when the standard variables say so, whatever the config', () => {
    expect(tracingWanted(config({ enabled: true }), { OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted(config({ enabled: true }), { OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('takes an empty variable for an unset one (Compose passes ${VAR:-} through so)', () => {
    expect(tracingWanted(config(), { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_TRACES_EXPORTER: ' ' })).toBe(false);
  });
});

describe('[tracing]', () => {
  it('refuses a trace URL without {trace_id}, naming what it needs', () => {
    expect(() => config({ trace_url: 'http://jaeger:16686/trace/' })).toThrow(/\{trace_id\}/);
    expect(config({ trace_url: 'http://jaeger:16686/trace/{trace_id}' }).trace_url).toBe('http://jaeger:16686/trace/{trace_id}');
  });
});
