import type { ThrottlerStorage } from '@nestjs/throttler';

/** What a counter store answers for a request (the throttler's package does not export the type). */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * A fixed window per client: every request counts, and the request that takes the count past the
 * limit blocks the client for the block duration. Requests refused while blocked do not count, so a
 * client that keeps trying during its block is not blocked again for them once it ends. Both
 * counter stores keep this rule; this turns their millisecond figures into what the throttler
 * guard reads (seconds, for its headers).
 */
export function rateLimitRecord(totalHits: number, expiresInMs: number, blockedForMs: number): ThrottlerStorageRecord {
  return {
    totalHits,
    timeToExpire: Math.ceil(expiresInMs / 1000),
    isBlocked: blockedForMs > 0,
    timeToBlockExpire: Math.ceil(blockedForMs / 1000),
  };
}
