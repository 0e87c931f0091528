import type { ThrottlerStorage } from '@nestjs/throttler';
import { rateLimitRecord, type ThrottlerStorageRecord } from './rate-limit-record';

interface Counter {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

/**
 * Rate-limit counters of one process (no Redis): a count per client, where the throttler's own
 * in-memory storage keeps a timestamp per request and filters them all on every request.
 */
export class MemoryRateLimitStorage implements ThrottlerStorage {
  private readonly counters = new Map<string, Counter>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const now = this.now();
    this.sweep(now, ttl);
    const id = `${key}:${throttlerName}`;
    let counter = this.counters.get(id);
    if (!counter) this.counters.set(id, (counter = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 }));
    if (counter.blockedUntil > now)
      return rateLimitRecord(counter.hits, Math.max(0, counter.expiresAt - now), counter.blockedUntil - now);
    if (counter.expiresAt <= now) {
      counter.hits = 0;
      counter.expiresAt = now + ttl;
    }
    counter.hits += 1;
    if (counter.hits > limit) counter.blockedUntil = now + blockDuration;
    return rateLimitRecord(counter.hits, counter.expiresAt - now, Math.max(0, counter.blockedUntil - now));
  }

  /** Forgets clients whose window and block are both over; at most once a window, so idle clients do not pile up. */
  private sweep(now: number, ttl: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + ttl;
    for (const [id, counter] of this.counters) {
      if (counter.expiresAt <= now && counter.blockedUntil <= now) this.counters.delete(id);
    }
  }
}
