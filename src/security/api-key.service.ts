import { isDeepStrictEqual } from 'node:util';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { CatalogKey, LiveCatalog } from '../config/live-catalog';
import type { AccessPolicy } from './access-policy';
import { bearerCredentials, type BearerCredentials } from './bearer-token';
import type { Principal } from './principal';

/** A request's bearer credentials, checked against the catalog's keys. */
export type BearerVerdict =
  | { kind: 'valid'; principal: Principal }
  /** A token that matches no key, or the key of one past its `expires_at`. */
  | { kind: 'invalid' }
  | Exclude<BearerCredentials, { kind: 'token' }>;

interface KnownKey {
  principal: Principal;
  digest: Buffer;
  /** Epoch milliseconds from which the key is refused. */
  expiresAt: number;
}

/**
 * The live catalog's API keys and the one way to check a presented key against them. Keys are
 * compared as SHA-256 digests with `timingSafeEqual`, so neither the key's length nor its first
 * differing byte shows in the response time; every key is compared, so neither does which one
 * matched. The keys and their scopes are rebuilt when the catalog's keys or rules change.
 */
export class ApiKeyService {
  private keys: readonly KnownKey[];

  constructor(
    catalog: LiveCatalog,
    private readonly policy: AccessPolicy,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = this.known(catalog.current.keys);
    // The policy was made first, so it has its new rules before this listener reads them.
    catalog.onChange((next, previous) => {
      if (!isDeepStrictEqual([next.keys, next.rules], [previous.keys, previous.rules]))
        this.keys = this.known(next.keys);
    });
  }

  /** False when there are no keys: the service then runs open (see listen-policy.ts). */
  get required(): boolean {
    return this.keys.length > 0;
  }

  /** The request's bearer credentials checked against the keys. */
  verifyRequest(request: { headers: IncomingHttpHeaders }): BearerVerdict {
    return this.verdictOf(bearerCredentials(request.headers.authorization));
  }

  /** The principal owning this key, or undefined when it matches none or its key has expired. */
  verify(presented: string): Principal | undefined {
    const digest = sha256(presented);
    let found: KnownKey | undefined;
    for (const key of this.keys) {
      if (timingSafeEqual(digest, key.digest)) found = key;
    }
    return found && found.expiresAt > this.now() ? found.principal : undefined;
  }

  private verdictOf(credentials: BearerCredentials): BearerVerdict {
    if (credentials.kind !== 'token') return credentials;
    const principal = this.verify(credentials.token);
    return principal ? { kind: 'valid', principal } : { kind: 'invalid' };
  }

  // Names and digests are unique: the loader and the catalog refuse others.
  private known(keys: readonly CatalogKey[]): KnownKey[] {
    return keys.map(({ name, digest, expires_at, grant }) => ({
      principal: { name, scope: this.policy.scopeOf({ kind: 'key', name, grant }) },
      digest: Buffer.from(digest, 'hex'),
      expiresAt: expires_at?.getTime() ?? Infinity,
    }));
  }
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
