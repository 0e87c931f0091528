/** The API's guards: authentication and per-caller rate limits for every HTTP route (`@Public()` and `@SkipThrottle()` opt out), and for calls outside HTTP (gRPC). */
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { AuthConfig } from '../config/auth.schema';
import type { StorageMode } from '../config/storage-mode';
import { RedisService } from '../redis/redis.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { CallRateLimiter } from './call-rate-limiter';
import { ProtectedResourceController } from './protected-resource.controller';
import { RateLimitGuard } from './rate-limit.guard';
import { rateLimitOptions } from './rate-limit.options';

@Module({})
export class SecurityModule {
  /** With `auth.oauth`, the protected resource metadata is served. */
  static forRoot(mode: StorageMode, auth: AuthConfig): DynamicModule {
    return {
      module: SecurityModule,
      // The gRPC face (a2a-server) limits calls with the same service as the HTTP guard.
      global: true,
      imports: [
        ThrottlerModule.forRootAsync({
          inject: mode.shared === 'redis' ? [ConfigService, RedisService] : [ConfigService],
          useFactory: rateLimitOptions,
        }),
      ],
      providers: [
        CallRateLimiter,
        // Global guards run in this order: the limit first, so that rejected keys count against the IP.
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
      ],
      controllers: auth.oauth ? [ProtectedResourceController] : [],
      exports: [CallRateLimiter],
    };
  }
}
