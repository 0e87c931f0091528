import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { rateLimitRecord, type ThrottlerStorageRecord } from './rate-limit-record';

/**
 * rate-limit-record.ts's rule in one step. KEYS: the hit counter, the block marker; ARGV: window
 * ms, limit, block ms. Returns the hits, the window's ms left, the block's ms left (0: not blocked).
 */
const COUNT_HIT = `
local blockedFor = redis.call('PTTL', KEYS[2])
if blockedFor > 0 then
  return { tonumber(redis.call('GET', KEYS[1]) or '0'), math.max(redis.call('PTTL', KEYS[1]), 0), blockedFor }
end
local hits = redis.call('INCR', KEYS[1])
local expiresIn = redis.call('PTTL', KEYS[1])
if expiresIn <= 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  expiresIn = tonumber(ARGV[1])
end
if hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], 1, 'PX', ARGV[3])
  return { hits, expiresIn, tonumber(ARGV[3]) }
end
return { hits, expiresIn, 0 }`;

const COMMAND = 'switchboardCountHit';

type CountHit = (
  hitKey: string,
  blockKey: string,
  ttl: number,
  limit: number,
  blockDuration: number,
) => Promise<[number, number, number]>;

/**
 * Rate-limit counters in Redis, shared by every replica on the same Redis and key prefix. The
 * script goes by EVALSHA (ioredis sends it whole only when Redis lacks it, as after a restart), not
 * whole with every request as @nest-lab/throttler-storage-redis did. Keys are hash-tagged per client
 * for Redis Cluster: `{<key>:<throttler>}:hits` and `:blocked`.
 */
export class RedisRateLimitStorage implements ThrottlerStorage {
  private readonly countHit: CountHit;

  constructor(redis: Redis) {
    redis.defineCommand(COMMAND, { numberOfKeys: 2, lua: COUNT_HIT });
    const commands = redis as unknown as Record<typeof COMMAND, CountHit>;
    this.countHit = commands[COMMAND].bind(redis);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const tag = `{${key}:${throttlerName}}`;
    const [hits, expiresIn, blockedFor] = await this.countHit(
      `${tag}:hits`,
      `${tag}:blocked`,
      ttl,
      limit,
      blockDuration,
    );
    return rateLimitRecord(hits, expiresIn, blockedFor);
  }
}
