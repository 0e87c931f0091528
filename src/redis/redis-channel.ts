import type Redis from 'ioredis';
import { type RedisService } from './redis.service';

export interface ChannelListener {
  /** A message published on the channel (a task id, a revision), by this process or another. */
  message(text: string): void;
  /** The subscriber is back after losing its connection: what was published while it was away is lost. */
  connected(): void;
  /** The subscriber lost its connection: messages are missed until `connected`. */
  disconnected?(): void;
}

/**
 * A Redis pub/sub channel of short texts (task ids, catalog revisions): each process holds one subscriber
 * connection for it, opened on first use, and hands every message to its listener.
 */
export class RedisChannel {
  private subscription?: Promise<Redis>;
  /** A subscriber connection was lost, or failed to come up: the next one to come up may have missed messages. */
  private lost = false;

  constructor(
    private readonly redis: RedisService,
    /** The channel's name under the configured key prefix, and its connection's purpose. */
    private readonly name: string,
    private readonly listener: ChannelListener,
  ) {}

  /** The channel's full name, for publishing from a transaction. */
  get key(): string {
    return this.redis.key(this.name);
  }

  async publish(text: string): Promise<void> {
    await this.redis.client.publish(this.key, text);
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
    subscriber.on('message', (_channel: string, text: string) => this.listener.message(text));
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
