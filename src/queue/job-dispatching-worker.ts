import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { JobHandlerRegistry } from './job-handler.registry';
import type { JobName } from './queue.constants';

export interface WorkerSettings {
  concurrency: number;
  /** A job whose worker stops renewing its lock for this long is stalled (the process died). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/** A BullMQ worker that hands every job to its @OnJob handler. */
export abstract class JobDispatchingWorker extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(this.constructor.name);

  constructor(
    private readonly registry: JobHandlerRegistry,
    private readonly settings: WorkerSettings,
  ) {
    super();
  }

  /** BullMQ reads these options as it goes, so settings from config apply though @Processor's are static. */
  onApplicationBootstrap(): void {
    const { concurrency, lockDurationMs, stalledIntervalMs } = this.settings;
    this.worker.concurrency = concurrency;
    if (lockDurationMs) this.worker.opts.lockDuration = lockDurationMs;
    if (stalledIntervalMs) this.worker.opts.stalledInterval = stalledIntervalMs;
  }

  /** Registered with the worker as it is created: an 'error' event without a listener would end the process. */
  @OnWorkerEvent('error')
  onError(error: Error): void {
    this.logger.warn({ err: error.message }, 'queue worker error');
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): void {
    this.logger.error({ job: job?.name, jobId: job?.id, err: error.message }, 'job failed');
  }

  process(job: Job): Promise<unknown> {
    return this.registry.dispatch(job.name as JobName, job.data as never, { attemptsStarted: job.attemptsStarted });
  }
}
