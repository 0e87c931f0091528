import { SpanKind, trace } from '@opentelemetry/api';
import { inSpan } from '../tracing/spans';
import { activeTraceCarrier, contextOfCarrier, hasRemoteSpan } from '../tracing/trace-context';
import type { QueueName } from './queue.constants';

/** The field of a job's data that carries the trace context of whoever queued it (when tracing is on). */
const TRACE_FIELD = 'trace';

const MESSAGING = { 'messaging.system.name': 'bullmq' } as const;

/**
 * Queues a job in a producer span, its data carrying the span's context so that the job's run on a
 * worker joins the trace (`inJobSpan`). Off, the payload goes as it is.
 */
export function enqueueTraced<P extends object>(
  queue: QueueName,
  job: string,
  jobId: string | undefined,
  payload: P,
  add: (data: P) => Promise<void>,
): Promise<void> {
  return inSpan(
    `send ${queue}`,
    () => ({
      kind: SpanKind.PRODUCER,
      attributes: {
        ...MESSAGING,
        'messaging.operation.type': 'send',
        'messaging.destination.name': queue,
        'switchboard.job.name': job,
        ...(jobId && { 'messaging.message.id': jobId }),
      },
    }),
    (span) => add(span ? { ...payload, [TRACE_FIELD]: activeTraceCarrier() } : payload),
  );
}

/** Runs a job in a consumer span: a child of the span that queued it, and linked to it, as the messaging conventions have it. */
export function inJobSpan<T>(
  queue: QueueName,
  job: string,
  data: unknown,
  attempt: number,
  run: () => Promise<T>,
): Promise<T> {
  return inSpan(
    `process ${queue}`,
    () => {
      const parent = contextOfCarrier((data as Record<string, unknown> | undefined)?.[TRACE_FIELD]);
      const queued = hasRemoteSpan(parent) ? trace.getSpanContext(parent) : undefined;
      return {
        kind: SpanKind.CONSUMER,
        parent,
        links: queued ? [{ context: queued }] : [],
        attributes: {
          ...MESSAGING,
          'messaging.operation.type': 'process',
          'messaging.destination.name': queue,
          'switchboard.job.name': job,
          'switchboard.job.attempt': attempt,
        },
      };
    },
    run,
  );
}
