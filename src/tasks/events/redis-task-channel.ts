import type Redis from 'ioredis';
import { type RedisService } from '../../redis/redis.service';

export interface TaskChannelListener {
  /** A task id published on the channel, by this process or another. */
  message(taskId: string): void;
  /** The subscriber is back after losing its connection: what was published while it was away is lost. */
  connected(): void;
  /** The subscriber lost its connection: messages are missed until `connected`. */
  disconnected?(): void;
}

/**
 * A Redis pub/sub channel of task ids (or any text): each process holds one subscriber connection for it, opened
 * on first use, and hands every message to its listener.
 */
export class RedisTaskChannel {
  private subscription?: Promise<Redis>;
  /** A subscriber connection was lost, or failed to come up: the next one to come up may have missed messages. */
  private lost = false;

  constructor(
    private readonly redis: RedisService,
    /** The channel's name under the configured key prefix, and its connection's purpose. */
    private readonly name: string,
    private readonly listener: TaskChannelListener,
  ) {}

  /** The channel's full name, for publishing from a transaction. */
  get key(): string {
    return this.redis.key(this.name);
  }

  async publish(taskId: string): Promise<void> {
    await this.redis.client.publish(this.key, taskId);
  }

  /** `watch`, once this process is subscribed; disposed when subscribing fails. */
  async watching<W extends { dispose(): void }>(watch: W): Promise<W> {
    try {
      await this.subscribed();
      return watch;
    } catch (error) {
      watch.dispose();
      throw error;
    }
  }

  /** Resolves once this process is subscribed: a message published after that reaches the listener. */
  async subscribed(): Promise<void> {
    this.subscription ??= this.connect().catch((error: Error) => {
      this.subscription = undefined;
      throw error;
    });
    await this.subscription;
  }

  private async connect(): Promise<Redis> {
    const subscriber = this.redis.dedicatedConnection(this.name);
    subscriber.on('message', (_channel: string, taskId: string) => this.listener.message(taskId));
    // ioredis subscribes again after a reconnect, but messages published while it was away are lost.
    // It emits 'ready' on the tick after sending that SUBSCRIBE, so what is published once `connected`
    // runs arrives. The first connection's first 'ready' may come after the subscription: nothing was missed then.
    subscriber.on('ready', () => this.lost && this.listener.connected());
    subscriber.on('close', () => {
      this.lost = true;
      this.listener.disconnected?.();
    });
    try {
      await subscriber.subscribe(this.key);
      return subscriber;
    } catch (error) {
      subscriber.disconnect();
      throw error;
    }
  }
}
