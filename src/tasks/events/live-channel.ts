import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import type { RedisService } from '../../redis/redis.service';
import { RedisChannel } from '../../redis/redis-channel';

/**
 * Messages for whoever listens now, on every process (Redis pub/sub) or this one (memory): what a
 * live view shows as it happens. Nothing is kept: a listener hears what is published while it listens.
 */
export interface LiveChannel<T> {
  publish(message: T): Promise<void>;
  /** Calls `listener` with every message from the time the returned promise resolves; the function it resolves to stops that. */
  listen(listener: (message: T) => void): Promise<() => void>;
}

/** A channel within one process (embedded mode). */
export class MemoryLiveChannel<T> implements LiveChannel<T> {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(message: T): Promise<void> {
    this.emitter.emit('message', message);
  }

  async listen(listener: (message: T) => void): Promise<() => void> {
    this.emitter.on('message', listener);
    return () => this.emitter.off('message', listener);
  }
}

/**
 * A Redis pub/sub channel of JSON messages, on the process's one subscriber connection for the
 * channel (RedisChannel, whose messages are text), opened by the first listener. What is
 * published while that connection is down is missed, as live views allow.
 */
export class RedisLiveChannel<T> implements LiveChannel<T> {
  private readonly logger = new Logger(RedisLiveChannel.name);
  private readonly local = new MemoryLiveChannel<T>();
  private readonly channel: RedisChannel;

  constructor(
    private readonly redis: RedisService,
    /** Under the configured key prefix; also the subscriber connection's purpose. */
    private readonly name: string,
  ) {
    this.channel = new RedisChannel(redis, name, {
      message: (text) => this.deliver(text),
      connected: () => undefined,
    });
  }

  async publish(message: T): Promise<void> {
    await this.redis.client.publish(this.channel.key, JSON.stringify(message));
  }

  async listen(listener: (message: T) => void): Promise<() => void> {
    await this.channel.subscribed();
    return this.local.listen(listener);
  }

  private deliver(text: string): void {
    try {
      void this.local.publish(JSON.parse(text) as T);
    } catch (error) {
      this.logger.warn({ channel: this.name, err: (error as Error).message }, 'unreadable live message dropped');
    }
  }
}
