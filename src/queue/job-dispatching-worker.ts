import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { MetricsService } from '../metrics/metrics.service';
import { JobHandlerRegistry } from './job-handler.registry';
import { inJobSpan } from './job-trace';
import type { JobName, QueueName } from './queue.constants';

/** A BullMQ worker that hands every job to its @OnJob handler. */
export abstract class JobDispatchingWorker extends WorkerHost {
  private readonly logger = new Logger(this.constructor.name);

  constructor(
    private readonly registry: JobHandlerRegistry,
    private readonly metrics: MetricsService,
  ) {
    super();
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
    // A job run again (its worker died, or it failed and backs off) waited for other reasons than a free worker.
    if (job.attemptsStarted === 1) this.metrics.jobStarted(job.queueName, job.timestamp + (job.delay ?? 0));
    // BullMQ's progress is 0 until a run saves some.
    const progress = typeof job.progress === 'object' ? job.progress : undefined;
    const attempt = {
      attemptsStarted: job.attemptsStarted,
      progress,
      saveProgress: (saved: object) => job.updateProgress(saved),
    };
    return inJobSpan(job.queueName as QueueName, job.name, job.data, job.attemptsStarted, () =>
      this.registry.dispatch(job.name as JobName, job.data as never, attempt),
    );
  }
}
