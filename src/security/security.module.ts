/** API-key authentication and per-client rate limiting for every HTTP route (`@Public()` and `@SkipThrottle()` opt out), and for calls outside HTTP (gRPC). */
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { SwitchboardConfig } from '../config/config.schema';
import type { StorageMode } from '../config/storage-mode';
import { RedisService } from '../redis/redis.service';
import { ApiKeyService } from './api-key.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { CallRateLimiter } from './call-rate-limiter';
import { RateLimitGuard } from './rate-limit.guard';
import { rateLimitOptions } from './rate-limit.options';

@Module({})
export class SecurityModule {
  static forRoot(mode: StorageMode): DynamicModule {
    return {
      module: SecurityModule,
      // The gRPC face (a2a-server) checks keys and limits with the same services as the HTTP guards.
      global: true,
      imports: [
        ThrottlerModule.forRootAsync({
          inject: mode.shared === 'redis' ? [ConfigService, RedisService] : [ConfigService],
          useFactory: rateLimitOptions,
        }),
      ],
      providers: [
        {
          provide: ApiKeyService,
          inject: [ConfigService],
          useFactory: (config: ConfigService<SwitchboardConfig, true>) =>
            new ApiKeyService(config.get('auth', { infer: true }).api_keys),
        },
        CallRateLimiter,
        // Global guards run in this order: the limit first, so that rejected keys count against the IP.
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
      ],
      exports: [ApiKeyService, CallRateLimiter],
    };
  }
}
