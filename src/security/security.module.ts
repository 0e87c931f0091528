/** API-key authentication and per-client rate limiting for every HTTP route (`@Public()` and `@SkipThrottle()` opt out), and for calls outside HTTP (gRPC). */
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { SwitchboardConfig } from '../config/config.schema';
import type { StorageMode } from '../config/storage-mode';
import { RedisService } from '../redis/redis.service';
import { ApiKeyService } from './api-key.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { CallRateLimiter } from './call-rate-limiter';
import { CallerAuthenticator } from './caller-authenticator';
import { createGuardedFetch } from './guarded-fetch';
import { OutboundUrlPolicy } from './outbound-url-policy';
import { ProtectedResourceController } from './protected-resource.controller';
import { TokenVerifier } from './token-verifier';

/** An issuer's metadata or keys that take longer are not waited for: the token is refused, and tried again with the next. */
const ISSUER_TIMEOUT_MS = 5_000;
import { RateLimitGuard } from './rate-limit.guard';
import { rateLimitOptions } from './rate-limit.options';

@Module({})
export class SecurityModule {
  /** `auth`: with `oauth`, access tokens of its issuers are accepted beside API keys, and the resource metadata is served. */
  static forRoot(mode: StorageMode, auth: SwitchboardConfig['auth']): DynamicModule {
    const tokens: Provider[] = auth.oauth
      ? [
          {
            provide: TokenVerifier,
            inject: [ConfigService, OutboundUrlPolicy],
            useFactory: (config: ConfigService<SwitchboardConfig, true>, policy: OutboundUrlPolicy) =>
              new TokenVerifier(auth.oauth!, config.get('a2a', { infer: true }).listen_path, createGuardedFetch(policy, { timeoutMs: ISSUER_TIMEOUT_MS })),
          },
        ]
      : [];
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
        ...tokens,
        CallerAuthenticator,
        // Global guards run in this order: the limit first, so that rejected keys count against the IP.
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
      ],
      controllers: auth.oauth ? [ProtectedResourceController] : [],
      exports: [ApiKeyService, CallRateLimiter, CallerAuthenticator, ...(auth.oauth ? [TokenVerifier] : [])],
    };
  }
}
