import { SWITCHBOARD_VERSION } from '../common/version';
import type { SwitchboardConfig } from '../config/config.schema';
import { markTracingOn } from './spans';

type Env = NodeJS.ProcessEnv;

export interface Tracing {
  /** Sends the spans not sent yet; every process calls it as it stops. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { shutdown: async () => undefined };

/**
 * Starts the OpenTelemetry SDK when tracing is wanted (`tracing` in the config, or the standard
 * OTEL_* variables), with OTLP/HTTP export and the W3C propagator. The config's keys are defaults
 * of the OTEL_* variables, which the SDK reads (exporter, endpoint, protocol, sampler, service
 * name). Off, the SDK is not even loaded: the API's no-op stands in, and no span is made.
 */
export async function startTracing(
  config: SwitchboardConfig['tracing'],
  role: string,
  env: Env = process.env,
): Promise<Tracing> {
  if (!tracingWanted(config, env)) return OFF;
  applyConfigDefaults(config, env);
  const [{ NodeSDK }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/resources'),
  ]);
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ 'service.version': SWITCHBOARD_VERSION, 'switchboard.process.role': role }),
    // Metrics stay Prometheus's (/metrics), logs stay lines: unset, the SDK would export both over OTLP too.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  markTracingOn();
  return { shutdown: () => sdk.shutdown() };
}

/** Whether traces are exported: an empty variable counts as unset (Compose passes `${VAR:-}` through so). */
export function tracingWanted(config: SwitchboardConfig['tracing'], env: Env): boolean {
  const read = (name: string) => env[name]?.trim().toLowerCase() || undefined;
  if (read('OTEL_SDK_DISABLED') === 'true') return false;
  const exporter = read('OTEL_TRACES_EXPORTER');
  if (exporter === 'none') return false;
  return (
    config.enabled ||
    exporter !== undefined ||
    read('OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined ||
    read('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined
  );
}

/** The config's keys as the OTEL_* variables' defaults: a variable set (not empty) wins. */
export function applyConfigDefaults(config: SwitchboardConfig['tracing'], env: Env): void {
  const unset = (name: string) => !env[name]?.trim();
  if (config.endpoint && unset('OTEL_EXPORTER_OTLP_ENDPOINT')) env.OTEL_EXPORTER_OTLP_ENDPOINT = config.endpoint;
  if (unset('OTEL_EXPORTER_OTLP_PROTOCOL')) env.OTEL_EXPORTER_OTLP_PROTOCOL = config.protocol;
  if (unset('OTEL_SERVICE_NAME')) env.OTEL_SERVICE_NAME = config.service_name;
  if (unset('OTEL_TRACES_SAMPLER') && config.sample_ratio < 1) {
    env.OTEL_TRACES_SAMPLER = 'parentbased_traceidratio';
    env.OTEL_TRACES_SAMPLER_ARG = String(config.sample_ratio);
  }
}
