import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { RedisService } from '../redis/redis.service';
import type { PresenceRole, ProcessInfo, ProcessPresence } from './process-presence.interface';
import { thisProcess } from './this-process';

/** How often each process announces itself, and how long an announcement lasts: three missed ones and it is gone. */
const ANNOUNCE_EVERY_MS = 5_000;
const ANNOUNCEMENT_TTL_MS = 3 * ANNOUNCE_EVERY_MS;
const SCAN_BATCH = 200;

/**
 * Durable mode: each process keeps a key of its own (`{prefix}process:{id}`, its ProcessInfo as
 * JSON) alive with a TTL it refreshes on an interval, and removes it when it shuts down. Listing
 * scans those keys: a process that died without a word drops out once its key expires.
 */
export class RedisProcessPresence implements ProcessPresence, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RedisProcessPresence.name);
  readonly self: ProcessInfo;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisService,
    role: PresenceRole,
  ) {
    this.self = thisProcess(role);
  }

  onApplicationBootstrap(): void {
    void this.announce();
    this.timer = setInterval(() => void this.announce(), ANNOUNCE_EVERY_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.redis.client.del(this.key(this.self.id)).catch(() => undefined);
  }

  async list(): Promise<ProcessInfo[]> {
    const keys: string[] = [];
    for await (const batch of this.redis.client.scanStream({
      match: this.key('*'),
      count: SCAN_BATCH,
    }) as AsyncIterable<string[]>)
      keys.push(...batch);
    if (keys.length === 0) return [];
    const values = await this.redis.client.mget(...keys);
    return values
      .filter((value): value is string => value !== null)
      .map((value) => JSON.parse(value) as ProcessInfo)
      .sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.id.localeCompare(b.id));
  }

  /** A failed announcement is tried again at the next tick; until then the last one stands. */
  private async announce(): Promise<void> {
    const info: ProcessInfo = { ...this.self, lastSeenAt: new Date().toISOString() };
    await this.redis.client
      .set(this.key(info.id), JSON.stringify(info), 'PX', ANNOUNCEMENT_TTL_MS)
      .catch((error: Error) => {
        this.logger.warn({ err: error.message }, 'could not announce this process');
      });
  }

  private key(id: string): string {
    return this.redis.key('process', id);
  }
}
