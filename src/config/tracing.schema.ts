import { z } from 'zod';

/**
 * `[tracing]`: OpenTelemetry traces, exported over OTLP/HTTP. Each key is the default of a standard
 * OTEL_* variable, which wins when set, as in any OpenTelemetry-instrumented service.
 */
export const tracingSchema = z
  .strictObject({
    /** Export traces. Also on when OTEL_TRACES_EXPORTER or an OTEL_EXPORTER_OTLP_*ENDPOINT is set; OTEL_SDK_DISABLED=true turns it off. */
    enabled: z.boolean().default(false),
    /** The OTLP/HTTP receiver's base URL (`/v1/traces` is appended), e.g. `http://otel-collector:4318` (OTEL_EXPORTER_OTLP_ENDPOINT). */
    endpoint: z.url().optional(),
    /** OTEL_EXPORTER_OTLP_PROTOCOL. */
    protocol: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
    /** Share of the traces Switchboard starts that are kept; a caller's sampled trace is always continued (OTEL_TRACES_SAMPLER, _ARG). */
    sample_ratio: z.number().min(0).max(1).default(1),
    /** OTEL_SERVICE_NAME. */
    service_name: z.string().min(1).default('switchboard'),
    /** A trace UI's page of one trace, `{trace_id}` standing for its id (`http://jaeger:16686/trace/{trace_id}`): where the console links a task's trace. */
    trace_url: z
      .string()
      .refine((url) => url.includes('{trace_id}'), 'must contain {trace_id}')
      .optional(),
  })
  .prefault({});
