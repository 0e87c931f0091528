import { Logger } from '@nestjs/common';
import { type RedisService } from '../../redis/redis.service';
import { CANCEL_REQUEST_TTL_SECS, type CancelSignals, type CancelWatch } from './cancel-signals.interface';
import { CancelWatchers } from './cancel-watchers';
import { execTransaction } from '../../redis/redis-transaction';
import { RedisChannel } from '../../redis/redis-channel';

/**
 * Cancel signals across replicas: a request sets a key (so it is seen by watches that start later)
 * and publishes the task id, which each process fans out to its local watchers.
 */
export class RedisCancelSignals implements CancelSignals {
  private readonly logger = new Logger(RedisCancelSignals.name);
  private readonly watchers = new CancelWatchers();
  private readonly channel: RedisChannel;

  constructor(private readonly redis: RedisService) {
    this.channel = new RedisChannel(redis, 'cancel-requests', {
      message: (taskId) => this.watchers.abort(taskId),
      connected: () => void this.recheckAll(),
    });
  }

  async request(taskId: string): Promise<void> {
    await execTransaction(
      this.redis.client
        .multi()
        .set(this.key(taskId), '1', 'EX', CANCEL_REQUEST_TTL_SECS)
        .publish(this.channel.key, taskId),
    );
  }

  async isRequested(taskId: string): Promise<boolean> {
    return (await this.redis.client.exists(this.key(taskId))) === 1;
  }

  async watch(taskId: string, { idUnknownUntil = 0 }: { idUnknownUntil?: number } = {}): Promise<CancelWatch> {
    // Subscribed before checking the key: a request lands in one or the other, never in between.
    const watch = await this.channel.watching(this.watchers.add(taskId));
    if (Date.now() < idUnknownUntil) return watch;
    try {
      if (await this.isRequested(taskId)) this.watchers.abort(taskId);
      return watch;
    } catch (error) {
      watch.dispose();
      throw error;
    }
  }

  async forget(taskIds: string[]): Promise<void> {
    if (taskIds.length > 0) await this.redis.client.unlink(...taskIds.map((taskId) => this.key(taskId)));
  }

  private async recheckAll(): Promise<void> {
    for (const taskId of this.watchers.taskIds()) {
      try {
        if (await this.isRequested(taskId)) this.watchers.abort(taskId);
      } catch (error) {
        this.logger.warn({ taskId, err: (error as Error).message }, 'cancel signal recheck failed');
      }
    }
  }

  private key(taskId: string): string {
    return this.redis.key('cancel', taskId);
  }
}
