import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { MetricsService } from '../metrics/metrics.service';
import { JobHandlerRegistry } from './job-handler.registry';
import { enqueueTraced, inJobSpan } from './job-trace';
import { EnqueueOptions, JobQueue, QueueCounts } from './job-queue.interface';
import { JobName, JobPayloads, QUEUE_OF_JOB, QueueName } from './queue.constants';

/** Ids of finished jobs remembered, so a repeated enqueue of one is still a no-op (as BullMQ keeps its last 1000 completed jobs). */
const FINISHED_IDS_KEPT = 1_000;

interface WaitingJob {
  name: JobName;
  id?: string;
  payload: unknown;
  attemptsStarted: number;
  progress?: object;
  enqueuedAt: number;
  delayMs?: number;
  retry?: EnqueueOptions['retry'];
}

/**
 * Embedded mode's queue: jobs run in this process, at most `queue.concurrency` at a time. Nothing
 * survives a restart, which is what embedded mode promises: a stop ends the jobs (see
 * beforeApplicationShutdown) rather than waiting for them.
 */
@Injectable()
export class InProcessJobQueue implements JobQueue, BeforeApplicationShutdown {
  private readonly logger = new Logger(InProcessJobQueue.name);
  private readonly concurrency: number;
  private readonly waiting: WaitingJob[] = [];
  /** Each running job, with what tells it that the process stops. */
  private readonly active = new Map<Promise<unknown>, { queue: QueueName; stop: AbortController }>();
  /** Ids of jobs waiting or running. */
  private readonly pendingIds = new Set<string>();
  /** Ids of the latest finished jobs, oldest first. */
  private readonly finishedIds = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly schedules = new Map<JobName, { timer: NodeJS.Timeout; everyMs: number }>();
  private readonly failed = new Map<QueueName, number>();
  private closed = false;

  constructor(
    private readonly registry: JobHandlerRegistry,
    private readonly metrics: MetricsService,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.concurrency = config.get('queue', { infer: true }).concurrency;
  }

  isReachable(): boolean {
    return !this.closed;
  }

  async enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options: EnqueueOptions = {}): Promise<void> {
    if (this.closed) throw new Error('queue is shut down');
    if (options.jobId) {
      if (this.pendingIds.has(options.jobId) || this.finishedIds.has(options.jobId)) return;
      this.pendingIds.add(options.jobId);
    }
    await enqueueTraced(QUEUE_OF_JOB[name], name, options.jobId, payload, async (data) => {
      const job: WaitingJob = {
        name,
        id: options.jobId,
        payload: data,
        attemptsStarted: 0,
        enqueuedAt: Date.now(),
        delayMs: options.delayMs,
        retry: options.retry,
      };
      if (options.delayMs) this.later(() => this.push(job), options.delayMs);
      else this.push(job);
    });
  }

  async schedule(name: JobName, everyMs: number): Promise<void> {
    const existing = this.schedules.get(name);
    if (existing?.everyMs === everyMs) return;
    if (existing) clearInterval(existing.timer);
    const timer = setInterval(() => void this.enqueue(name, {} as never), everyMs);
    timer.unref();
    this.schedules.set(name, { timer, everyMs });
  }

  async isPending(_name: JobName, jobId: string): Promise<boolean> {
    return this.pendingIds.has(jobId);
  }

  async withdraw(_name: JobName, jobId: string): Promise<boolean> {
    const index = this.waiting.findIndex((job) => job.id === jobId);
    if (index === -1) return !this.pendingIds.has(jobId);
    this.waiting.splice(index, 1);
    this.pendingIds.delete(jobId);
    return true;
  }

  onDataLost(): void {}

  async counts(): Promise<Record<QueueName, QueueCounts>> {
    const counts = Object.fromEntries(
      Object.values(QueueName).map((queue) => [
        queue,
        { waiting: 0, active: 0, delayed: 0, failed: this.failed.get(queue) ?? 0 },
      ]),
    ) as Record<QueueName, QueueCounts>;
    for (const job of this.waiting) counts[QUEUE_OF_JOB[job.name]].waiting++;
    for (const { queue } of this.active.values()) counts[queue].active++;
    return counts;
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('queue is shut down');
  }

  /**
   * Before the API stops serving, so that callers still get their answers: the jobs of this process
   * die with it, so they are ended, not waited for. Running jobs see their `stopping` signal abort;
   * turns still waiting run at once with it aborted, so that each records its task's end; other
   * waiting jobs (webhook deliveries, maintenance) are dropped with the process's memory. New sends
   * are refused from here on (isReachable). Resolves when every started job has returned.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const { timer } of this.schedules.values()) clearInterval(timer);
    for (const { stop } of this.active.values()) stop.abort();
    for (const job of this.waiting.splice(0)) {
      if (job.name === JobName.AgentTurn) this.start(job, stopped());
      else this.finish(job);
    }
    await Promise.allSettled([...this.active.keys()]);
  }

  private later(run: () => void, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private push(job: WaitingJob): void {
    if (this.closed) return this.finish(job);
    this.waiting.push(job);
    this.pump();
  }

  private pump(): void {
    while (this.active.size < this.concurrency && this.waiting.length > 0) this.start(this.waiting.shift()!);
  }

  /** Runs `job` now; `stop` aborts its `stopping` signal. */
  private start(job: WaitingJob, stop = new AbortController()): void {
    job.attemptsStarted++;
    const queue = QUEUE_OF_JOB[job.name];
    if (job.attemptsStarted === 1) this.metrics.jobStarted(queue, job.enqueuedAt + (job.delayMs ?? 0));
    const attempt = {
      attemptsStarted: job.attemptsStarted,
      progress: job.progress,
      saveProgress: async (saved: object) => void (job.progress = saved),
      stopping: stop.signal,
    };
    const run = inJobSpan(queue, job.name, job.payload, job.attemptsStarted, () =>
      this.registry.dispatch(job.name, job.payload as never, attempt),
    )
      .then(
        () => this.finish(job),
        (error: Error) => {
          if (job.retry && job.attemptsStarted < job.retry.attempts) {
            this.later(() => this.push(job), job.retry.backoffMs * 2 ** (job.attemptsStarted - 1));
            return;
          }
          this.failed.set(queue, (this.failed.get(queue) ?? 0) + 1);
          this.logger.error({ job: job.name, err: error }, 'job failed');
          this.finish(job);
        },
      )
      .finally(() => {
        this.active.delete(run);
        this.pump();
      });
    this.active.set(run, { queue, stop });
  }

  /** The job will not run again: its id moves to the finished ones. */
  private finish(job: WaitingJob): void {
    if (!job.id) return;
    this.pendingIds.delete(job.id);
    this.finishedIds.add(job.id);
    if (this.finishedIds.size > FINISHED_IDS_KEPT) this.finishedIds.delete(this.finishedIds.values().next().value!);
  }
}

function stopped(): AbortController {
  const stop = new AbortController();
  stop.abort();
  return stop;
}
