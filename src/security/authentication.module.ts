/** Who a caller is, for every role: API keys, access tokens of trusted issuers, and the access policy over both. */
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthConfig } from '../config/auth.schema';
import type { SwitchboardConfig } from '../config/config.schema';
import { AccessPolicy } from './access-policy';
import { ApiKeyService } from './api-key.service';
import { CallerAuthenticator } from './caller-authenticator';
import { createGuardedFetch } from './guarded-fetch';
import { OutboundUrlPolicy } from './outbound-url-policy';
import { TokenVerifier } from './token-verifier';

/** An issuer's metadata or keys that take longer are not waited for: the token is refused, and tried again with the next. */
const ISSUER_TIMEOUT_MS = 5_000;

@Module({})
export class AuthenticationModule {
  /** With `auth.oauth`, access tokens of its issuers are accepted beside API keys. */
  static forRoot(auth: AuthConfig): DynamicModule {
    const tokens: Provider[] = auth.oauth
      ? [
          {
            provide: TokenVerifier,
            inject: [ConfigService, AccessPolicy, OutboundUrlPolicy],
            useFactory: (
              config: ConfigService<SwitchboardConfig, true>,
              access: AccessPolicy,
              outbound: OutboundUrlPolicy,
            ) =>
              new TokenVerifier(
                auth.oauth!,
                config.get('a2a', { infer: true }).listen_path,
                access,
                createGuardedFetch(outbound, { timeoutMs: ISSUER_TIMEOUT_MS }),
              ),
          },
        ]
      : [];
    return {
      module: AuthenticationModule,
      global: true,
      providers: [
        { provide: AccessPolicy, useFactory: () => new AccessPolicy(auth) },
        {
          provide: ApiKeyService,
          inject: [AccessPolicy],
          useFactory: (access: AccessPolicy) => new ApiKeyService(auth.api_keys, access),
        },
        ...tokens,
        CallerAuthenticator,
      ],
      exports: [CallerAuthenticator, ...(auth.oauth ? [TokenVerifier] : [])],
    };
  }
}
