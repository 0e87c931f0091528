import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { JobState, Queue } from 'bullmq';
import { withTimeout } from '../common/with-timeout';
import { REDIS_COMMAND_TIMEOUT_MS, RedisService } from '../redis/redis.service';
import { EnqueueOptions, JobQueue, QueueCounts } from './job-queue.interface';
import { enqueueTraced } from './job-trace';
import { JobName, JobPayloads, QUEUE_OF_JOB, QueueName } from './queue.constants';
import { QueueEpochWatch } from './queue-epoch-watch';

/** How long boot waits for the queues' Redis connections. */
const BOOT_CONNECT_WAIT_MS = 5_000;
/** States of a job that will still run, or runs now. */
const PENDING_STATES: readonly (JobState | 'unknown')[] = [
  'waiting',
  'waiting-children',
  'prioritized',
  'delayed',
  'active',
];

/** The only class that knows BullMQ's queue API; workers live in the processors. */
@Injectable()
export class BullJobQueue implements JobQueue, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BullJobQueue.name);
  private readonly queues: Record<QueueName, Queue>;
  /** Each queue's connection, once BullMQ has opened it. */
  private readonly connections = new Map<QueueName, { status: string }>();
  /** The epoch of the queues' data, kept beside them (the queues' Redis is the service's). */
  private readonly epoch: QueueEpochWatch;

  constructor(
    @InjectQueue(QueueName.AgentTurns) agentTurns: Queue,
    @InjectQueue(QueueName.PushDeliveries) pushDeliveries: Queue,
    @InjectQueue(QueueName.Maintenance) maintenance: Queue,
    redis: RedisService,
  ) {
    this.queues = {
      [QueueName.AgentTurns]: agentTurns,
      [QueueName.PushDeliveries]: pushDeliveries,
      [QueueName.Maintenance]: maintenance,
    };
    for (const [name, queue] of Object.entries(this.queues)) {
      queue.on('error', (error) => this.logger.warn({ queue: name, err: error.message }, 'queue connection error'));
    }
    this.epoch = new QueueEpochWatch(redis.client, redis.key('bull', 'epoch'));
  }

  /**
   * Boot waits a while for the queues' connections, so that `isReachable` knows them from the first
   * request; with Redis down it goes on without them, and sends are refused until they are up.
   */
  async onModuleInit(): Promise<void> {
    const queues = Object.entries(this.queues) as [QueueName, Queue][];
    const connected = Promise.all(queues.map(async ([name, queue]) => this.connections.set(name, await queue.client)));
    await withTimeout(connected, BOOT_CONNECT_WAIT_MS, 'queue connections').catch((error: Error) => {
      this.logger.warn({ err: error.message }, 'queue connections not up at boot: sends are refused until they are');
    });
    this.epoch.start();
  }

  /** BullMQ's connections retry forever: while one is down, an add waits until Redis is back. */
  isReachable(name: JobName): boolean {
    return this.connections.get(QUEUE_OF_JOB[name])?.status === 'ready';
  }

  /**
   * A queue closed (at application shutdown) while its connection is still opening fails that
   * opening with no listener left to hear it, an unhandled error: closing waits for it, a while.
   */
  async onModuleDestroy(): Promise<void> {
    this.epoch.stop();
    const opened = Object.values(this.queues).map((queue) => queue.waitUntilReady());
    await withTimeout(Promise.all(opened), BOOT_CONNECT_WAIT_MS, 'queue connections').catch(() => undefined);
  }

  /**
   * Fails when Redis has not taken the job within REDIS_COMMAND_TIMEOUT_MS (it stopped answering).
   * Should that Redis take it later after all, the job runs then.
   */
  enqueue<N extends JobName>(name: N, payload: JobPayloads[N], options: EnqueueOptions = {}): Promise<void> {
    const queue = QUEUE_OF_JOB[name];
    return enqueueTraced(queue, name, options.jobId, payload, async (data) => {
      const added = this.queues[queue].add(name, data, {
        jobId: options.jobId,
        delay: options.delayMs,
        attempts: options.retry?.attempts,
        backoff: options.retry && { type: 'exponential', delay: options.retry.backoffMs },
        removeOnComplete: { age: 3600, count: 1000 },
        removeOnFail: { age: 24 * 3600 },
      });
      await withTimeout(added, REDIS_COMMAND_TIMEOUT_MS, `queueing ${name}`);
    });
  }

  /** Upserting an existing scheduler would restart its period, so one that is there as wanted is left alone. */
  async schedule(name: JobName, everyMs: number): Promise<void> {
    const queue = this.queues[QUEUE_OF_JOB[name]];
    const existing = await queue.getJobScheduler(name);
    if (existing && Number(existing.every) === everyMs) return;
    await queue.upsertJobScheduler(name, { every: everyMs }, { name, data: {} });
    this.logger.log({ job: name, everyMs }, existing ? 'job schedule updated' : 'job schedule registered');
  }

  async isPending(name: JobName, jobId: string): Promise<boolean> {
    return PENDING_STATES.includes(await this.queues[QUEUE_OF_JOB[name]].getJobState(jobId));
  }

  async withdraw(name: JobName, jobId: string): Promise<boolean> {
    const queue = this.queues[QUEUE_OF_JOB[name]];
    // 0 is a job a worker holds locked, or no job at all.
    return (await queue.remove(jobId)) === 1 || (await queue.getJob(jobId)) === undefined;
  }

  onDataLost(listener: (epoch: string) => void): void {
    this.epoch.onLost(listener);
  }

  async counts(): Promise<Record<QueueName, QueueCounts>> {
    const entries = await Promise.all(
      Object.entries(this.queues).map(async ([name, queue]) => {
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
        return [
          name,
          { waiting: counts.waiting, active: counts.active, delayed: counts.delayed, failed: counts.failed },
        ];
      }),
    );
    return Object.fromEntries(entries) as Record<QueueName, QueueCounts>;
  }

  async ping(timeoutMs: number): Promise<void> {
    await withTimeout(this.queues[QueueName.AgentTurns].getJobCountByTypes('waiting'), timeoutMs, 'queue round trip');
  }
}
