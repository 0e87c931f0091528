import type { JobName, JobPayloads, QueueName } from './queue.constants';

export const JOB_QUEUE = Symbol('JOB_QUEUE');

export interface EnqueueOptions {
  /** Derive from the entity (e.g. task id + turn) so a duplicate enqueue is a no-op. */
  jobId?: string;
  delayMs?: number;
  /** Runs a failing job again, up to `attempts` runs in all, waiting `backoffMs`, then twice that... */
  retry?: { attempts: number; backoffMs: number };
}

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** Where work is handed off: BullMQ on Redis in durable mode, this process in embedded mode. */
export interface JobQueue {
  /**
   * Whether the queue of `name` can take a job now, known without a round trip: false while its
   * store's connection is down or not yet up, when an enqueue would wait for it to come back.
   */
  isReachable(name: JobName): boolean;
  enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options?: EnqueueOptions): Promise<void>;
  /**
   * Runs `name` every `everyMs`. Idempotent, so every replica may call it at boot, and again whenever
   * the schedule may have been lost (a Redis restart without persistence): an unchanged schedule is
   * left as it is.
   */
  schedule(name: JobName, everyMs: number): Promise<void>;
  /** True while the job with this id (given at enqueue) is waiting, delayed or running. */
  isPending(name: JobName, jobId: string): Promise<boolean>;
  counts(): Promise<Record<QueueName, QueueCounts>>;
  ping(timeoutMs: number): Promise<void>;
}
