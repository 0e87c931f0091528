import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { apiKeyName } from '../config/api-keys';
import type { SwitchboardConfig } from '../config/config.schema';
import type { AccessPolicy } from './access-policy';
import { bearerCredentials, type BearerCredentials } from './bearer-token';
import type { Principal } from './principal';

type ApiKeysConfig = SwitchboardConfig['auth']['api_keys'];

/** A request's bearer credentials, checked against the configured keys. */
export type BearerVerdict =
  | { kind: 'valid'; principal: Principal }
  /** A token that matches no key. */
  | { kind: 'invalid' }
  | Exclude<BearerCredentials, { kind: 'token' }>;

interface KnownKey {
  principal: Principal;
  digest: Buffer;
}

/**
 * The configured API keys and the one way to check a presented key against them. Keys are compared
 * as SHA-256 digests with `timingSafeEqual`, so neither the key's length nor its first differing
 * byte shows in the response time; every key is compared, so neither does which one matched.
 */
export class ApiKeyService {
  private readonly keys: readonly KnownKey[];

  constructor(apiKeys: ApiKeysConfig, policy: AccessPolicy) {
    // Names and keys are unique: the loader refuses others (config/api-keys.ts).
    this.keys = apiKeys.map((entry, index) => {
      const name = apiKeyName(entry, index);
      const grant = typeof entry === 'string' ? undefined : entry;
      return {
        principal: { name, scope: policy.scopeOf({ kind: 'key', name, grant }) },
        digest: sha256(typeof entry === 'string' ? entry : entry.key),
      };
    });
  }

  /** False when no keys are configured: the service then runs open (see listen-policy.ts). */
  get required(): boolean {
    return this.keys.length > 0;
  }

  /** The request's bearer credentials checked against the keys. */
  verifyRequest(request: { headers: IncomingHttpHeaders }): BearerVerdict {
    return this.verdictOf(bearerCredentials(request.headers.authorization));
  }

  /** The principal owning this key, or undefined when it matches none. */
  verify(presented: string): Principal | undefined {
    const digest = sha256(presented);
    let found: Principal | undefined;
    for (const key of this.keys) {
      if (timingSafeEqual(digest, key.digest)) found = key.principal;
    }
    return found;
  }

  private verdictOf(credentials: BearerCredentials): BearerVerdict {
    if (credentials.kind !== 'token') return credentials;
    const principal = this.verify(credentials.token);
    return principal ? { kind: 'valid', principal } : { kind: 'invalid' };
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
