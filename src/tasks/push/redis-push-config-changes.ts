import { type RedisService } from '../../redis/redis.service';
import type { PushConfigChanges, PushConfigWatch } from './push-config-changes.interface';
import { PushConfigWatchers } from './push-config-watchers';
import { RedisChannel } from '../../redis/redis-channel';

/** Push config changes across replicas, published on a channel each process fans out to its watches. */
export class RedisPushConfigChanges implements PushConfigChanges {
  private readonly watchers = new PushConfigWatchers();
  private readonly channel: RedisChannel;

  constructor(redis: RedisService) {
    this.channel = new RedisChannel(redis, 'push-config-changes', {
      message: (taskId) => this.watchers.changed(taskId),
      connected: () => this.watchers.resumed(),
      disconnected: () => this.watchers.missed(),
    });
  }

  announce(taskId: string): Promise<void> {
    return this.channel.publish(taskId);
  }

  watch(taskId: string): Promise<PushConfigWatch> {
    return this.channel.watching(this.watchers.add(taskId));
  }
}
