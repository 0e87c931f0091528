import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import Redis, { RedisOptions } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { SwitchboardConfig } from '../config/config.schema';
import { withTimeout } from '../common/with-timeout';
import { BLOCK_MS } from './stream-reader';
import { StreamReaders } from './stream-readers';

/**
 * A command Redis has not answered in this long fails rather than waits: a Redis that stops
 * answering without closing its connections (a frozen process, a host gone from the network) must
 * not hold requests until TCP gives up, hours later.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 5_000;

/**
 * The one place that knows how to reach Redis. Owns every connection it hands out (the shared
 * command client, the multiplexed stream readers and dedicated ones for subscriptions) and closes
 * them all on shutdown.
 */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;
  readonly prefix: string;
  private readonly url: string;
  private readonly dedicated = new Set<Redis>();
  /** Follows streams (XREAD) for every reader in this process on a few connections. */
  readonly streams: StreamReaders;

  constructor(config: ConfigService<SwitchboardConfig, true>) {
    const redis = config.get('redis', { infer: true });
    if (!redis.url) throw new Error('RedisService needs redis.url (REDIS_URL)');
    this.url = redis.url;
    this.prefix = redis.key_prefix;
    this.client = this.connect('commands', { commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
    const instance = randomUUID();
    // A blocked read returns within BLOCK_MS even when nothing arrives.
    const readConnection = () =>
      this.dedicatedConnection('blocking-reads', { commandTimeout: BLOCK_MS + REDIS_COMMAND_TIMEOUT_MS });
    this.streams = new StreamReaders(readConnection, this.client, (n) =>
      this.key('stream-readers', instance, String(n)),
    );
  }

  /** A namespaced key: every key this service writes starts with the configured prefix. */
  key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  /** A connection of its own, for blocking commands or subscriptions; closed with the service. */
  dedicatedConnection(purpose: string, options: RedisOptions = {}): Redis {
    const connection = this.connect(purpose, options);
    this.dedicated.add(connection);
    connection.once('end', () => this.dedicated.delete(connection));
    return connection;
  }

  /** Connection options for libraries that open their own connections (BullMQ). */
  connectionOptions(overrides: RedisOptions = {}): RedisOptions {
    return { ...parseRedisUrl(this.url), ...RedisService.baseOptions, ...overrides };
  }

  async ping(timeoutMs: number): Promise<void> {
    await withTimeout(this.client.ping(), timeoutMs, 'Redis PING');
  }

  async onApplicationShutdown(): Promise<void> {
    this.streams.close();
    await Promise.allSettled([this.client, ...this.dedicated].map((connection) => connection.quit()));
  }

  private static readonly baseOptions: RedisOptions = {
    connectTimeout: 5_000,
    maxRetriesPerRequest: 2,
    retryStrategy: (attempt) => Math.min(100 * 2 ** attempt, 2_000),
  };

  private connect(purpose: string, options: RedisOptions = {}): Redis {
    const connection = new Redis(this.url, {
      ...RedisService.baseOptions,
      ...options,
      connectionName: `switchboard:${purpose}`,
    });
    connection.on('error', (error) => this.logger.warn({ purpose, err: error.message }, 'redis connection error'));
    return connection;
  }
}

function parseRedisUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 6379,
    username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : undefined,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}
