import type { ConfigService } from '@nestjs/config';
import type { ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import { withTimeout } from '../common/with-timeout';
import type { SwitchboardConfig } from '../config/config.schema';
import type { RedisService } from '../redis/redis.service';
import { MemoryRateLimitStorage } from './memory-rate-limit.storage';
import { RedisRateLimitStorage } from './redis-rate-limit.storage';

/**
 * One budget per client (API key name, else IP) across all routes, counted in Redis when it is
 * configured so that every replica sharing the Redis and key prefix enforces the same limit.
 */
export function rateLimitOptions(
  config: ConfigService<SwitchboardConfig, true>,
  redis?: RedisService,
): ThrottlerModuleOptions {
  const { enabled, limit, window_secs } = config.get('rate_limit', { infer: true });
  return {
    throttlers: [{ name: 'default', limit, ttl: Math.round(window_secs * 1000) }],
    skipIf: () => !enabled,
    // The storage wraps this key in a Redis Cluster hash tag: `{<prefix>ratelimit:<tracker>:default}:hits`.
    generateKey: (_context, tracker) => (redis ? redis.key('ratelimit', tracker) : tracker),
    storage: redis ? bounded(new RedisRateLimitStorage(redis.client)) : new MemoryRateLimitStorage(),
  };
}

/** A request waits at most this long for its count; past it the guard lets the request through uncounted. */
const COUNTER_TIMEOUT_MS = 1_000;

function bounded(storage: ThrottlerStorage): ThrottlerStorage {
  return { increment: (...args) => withTimeout(storage.increment(...args), COUNTER_TIMEOUT_MS, 'rate-limit counter') };
}
