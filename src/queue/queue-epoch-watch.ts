import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../common/with-timeout';
import { REDIS_COMMAND_TIMEOUT_MS } from '../redis/redis.service';

/** How often the epoch is read: how soon after a loss of the queue's data its waiting sends hear of it. */
export const EPOCH_CHECK_MS = 2_000;

/**
 * Notices that the queue's Redis lost its data, which BullMQ does not report: a flush, or a restart
 * or failover without it, leaves an empty queue that accepts jobs as before. A key holds an id of
 * the data's epoch, written by the first process to find it missing; every process remembers the id
 * it last read, and one that reads another (or none) knows that everything queued before is gone.
 * One GET per process every EPOCH_CHECK_MS, whatever the load.
 */
export class QueueEpochWatch {
  private readonly logger = new Logger(QueueEpochWatch.name);
  private readonly listeners: ((epoch: string) => void)[] = [];
  private epoch?: string;
  private timer?: NodeJS.Timeout;
  private checking = false;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  onLost(listener: (epoch: string) => void): void {
    this.listeners.push(listener);
  }

  start(): void {
    void this.check();
    this.timer = setInterval(() => void this.check(), EPOCH_CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const current = await withTimeout(this.read(), REDIS_COMMAND_TIMEOUT_MS, 'reading the queue epoch');
      const lost = this.epoch !== undefined && current !== this.epoch;
      this.epoch = current;
      if (!lost) return;
      this.logger.warn({ epoch: current }, "the queue's Redis lost its data: turns queued before are gone");
      for (const listener of this.listeners) listener(current);
    } catch {
      // Redis unreachable: the queue refuses sends meanwhile (isReachable), and the next check sees what it kept.
    } finally {
      this.checking = false;
    }
  }

  /** The epoch's id, begun here if the key is missing (a new Redis, or one that lost its data). */
  private async read(): Promise<string> {
    const current = await this.redis.get(this.key);
    if (current !== null) return current;
    await this.redis.set(this.key, randomUUID(), 'NX');
    return (await this.redis.get(this.key))!;
  }
}
