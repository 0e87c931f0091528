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
  /**
   * Takes back the job with this id if no worker has taken it: true when it is gone (taken back, or
   * never there), false when a worker holds it.
   */
  withdraw(name: JobName, jobId: string): Promise<boolean>;
  /**
   * Calls `listener` each time the queue's store is found to have lost its data (a Redis flushed, or
   * restarted or failed over without it): every job queued before is gone. `epoch` names the store's
   * data since, the same in every process, so that what each process does about one loss can be
   * done once. A queue in this process's memory never loses its data without the process.
   */
  onDataLost(listener: (epoch: string) => void): void;
  counts(): Promise<Record<QueueName, QueueCounts>>;
  ping(timeoutMs: number): Promise<void>;
}
