/** Who a caller is, for every role: the live catalog's API keys, access tokens of trusted issuers, and the access policy (the catalog's rules) over both. */
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AuthConfig } from '../config/auth.schema';
import type { SwitchboardConfig } from '../config/config.schema';
import { LiveCatalog } from '../config/live-catalog';
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
            inject: [ConfigService, AccessPolicy, OutboundUrlPolicy, LiveCatalog],
            useFactory: (
              config: ConfigService<SwitchboardConfig, true>,
              access: AccessPolicy,
              outbound: OutboundUrlPolicy,
              catalog: LiveCatalog,
            ) =>
              new TokenVerifier(
                auth.oauth!,
                config.get('a2a', { infer: true }).listen_path,
                access,
                createGuardedFetch(outbound, { timeoutMs: ISSUER_TIMEOUT_MS }),
                catalog,
              ),
          },
        ]
      : [];
    return {
      module: AuthenticationModule,
      global: true,
      providers: [
        {
          provide: AccessPolicy,
          inject: [LiveCatalog],
          useFactory: (catalog: LiveCatalog) => new AccessPolicy(catalog, auth.default_access),
        },
        {
          provide: ApiKeyService,
          inject: [LiveCatalog, AccessPolicy],
          useFactory: (catalog: LiveCatalog, access: AccessPolicy) => new ApiKeyService(catalog, access),
        },
        ...tokens,
        CallerAuthenticator,
      ],
      exports: [CallerAuthenticator, ...(auth.oauth ? [TokenVerifier] : [])],
    };
  }
}
