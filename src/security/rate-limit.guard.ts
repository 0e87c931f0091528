import { ExecutionContext, HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import { CallerAuthenticator } from './caller-authenticator';

const STORAGE_WARNING_INTERVAL_MS = 10_000;

/**
 * Limits requests per client: the API key's name when the request carries a valid key, else the
 * client IP, so guessing keys is limited per IP and one busy key does not starve others behind
 * the same proxy. Registered before the auth guard so that rejected attempts count too.
 * Routes opt out with `@SkipThrottle()` (health probes).
 *
 * Fails open: when the counter store (Redis) errors or is slow, the request goes on uncounted. An
 * outage then degrades rate limiting, not the whole API; /readyz reports the outage.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private lastStorageWarning = 0;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly callers: CallerAuthenticator,
  ) {
    super(options, storage, reflector);
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    try {
      return await super.handleRequest(request);
    } catch (error) {
      if (error instanceof HttpException) throw error;
      this.warnUncounted(error as Error);
      return true;
    }
  }

  protected override async getTracker(request: FastifyRequest): Promise<string> {
    const verdict = await this.callers.authenticate(request);
    return verdict.kind === 'valid'
      ? `${verdict.by}:${verdict.principal.name}`
      : `ip:${await super.getTracker(request)}`;
  }

  /** Nest's standard error body; the guard has already set `Retry-After` (seconds). */
  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new HttpException(
      {
        statusCode: HttpStatus.TOO_MANY_REQUESTS,
        error: 'Too Many Requests',
        message: `rate limit of ${detail.limit} requests per ${detail.ttl / 1000} s exceeded; retry in ${detail.timeToBlockExpire} s`,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }

  /** At most one warning per interval: during an outage every request fails to count. */
  private warnUncounted(error: Error): void {
    const now = Date.now();
    if (now - this.lastStorageWarning < STORAGE_WARNING_INTERVAL_MS) return;
    this.lastStorageWarning = now;
    this.logger.warn({ err: error.message }, 'rate-limit counters unavailable; letting requests through uncounted');
  }
}
