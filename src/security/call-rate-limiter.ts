import { Injectable, Logger } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';

/**
 * The HTTP rate limit (RateLimitGuard) for calls that reach no HTTP route, such as gRPC's: the same
 * budget per client, counted in the same store, so a client cannot double its rate by switching
 * bindings. Fails open as the guard does.
 */
@Injectable()
export class CallRateLimiter {
  private readonly logger = new Logger(CallRateLimiter.name);
  private readonly throttlers: ThrottlerOptions[];

  constructor(
    @InjectThrottlerOptions() private readonly options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
  ) {
    this.throttlers = Array.isArray(options) ? options : options.throttlers;
  }

  /** Counts one call of `tracker` (`key:<name>` or `ip:<address>`); the seconds to wait when it is over the limit, else undefined. */
  async secondsToWait(tracker: string): Promise<number | undefined> {
    // The options' hooks take Nest's execution context, which a call outside HTTP has not; ours read none of it.
    const none = undefined as never;
    if (Array.isArray(this.options) || this.options.skipIf?.(none)) return undefined;
    for (const throttler of this.throttlers) {
      const name = throttler.name ?? 'default';
      const [limit, ttl] = [Number(throttler.limit), Number(throttler.ttl)];
      const key = this.options.generateKey ? this.options.generateKey(none, tracker, name) : tracker;
      try {
        const record = await this.storage.increment(key, ttl, limit, Number(throttler.blockDuration ?? ttl), name);
        if (record.isBlocked) return record.timeToBlockExpire;
      } catch (error) {
        this.logger.warn(
          { err: (error as Error).message },
          'rate-limit counters unavailable; letting a call through uncounted',
        );
      }
    }
    return undefined;
  }
}
