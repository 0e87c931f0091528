import { createRemoteJWKSet, customFetch, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import type { SwitchboardConfig } from '../config/config.schema';
import { AccessScope } from './access-scope';
import type { Principal } from './principal';

type OAuthConfig = NonNullable<SwitchboardConfig['auth']['oauth']>;
type IssuerConfig = OAuthConfig['issuers'][number];
type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** What a presented access token turned out to be. `insufficient_scope` names the scopes it lacks. */
export type TokenVerdict = { kind: 'valid'; principal: Principal } | { kind: 'invalid'; why: string } | { kind: 'insufficient_scope'; scope: string };

/** RFC 9728's well-known path of a protected resource's metadata. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The paths an issuer's metadata may be at: OpenID Connect's, then RFC 8414's. */
const METADATA_PATHS = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'];

/**
 * Access tokens as principals: a JWT is verified locally against its issuer's published keys
 * (fetched once, found from the issuer's metadata unless configured, and fetched again when a token
 * names a key not seen yet, so keys rotate without a restart), for this resource's audience, within
 * the clock skew, with an allowed algorithm; then it must carry the issuer's required scopes. The
 * principal is the token's subject at its issuer (`sub@host`), which scopes tasks as a key's name
 * does. A token's text never appears in a verdict.
 */
export class TokenVerifier {
  private readonly keySets = new Map<string, Promise<KeySet>>();
  private readonly audiences: string[];

  constructor(
    private readonly oauth: OAuthConfig,
    a2aListenPath: string,
    private readonly fetchImpl: typeof fetch,
  ) {
    this.audiences = [oauth.resource, new URL(a2aListenPath, oauth.resource).href];
  }

  /**
   * This resource's metadata (RFC 9728): what it is, who issues tokens for it, and the scopes they
   * need. Served at `metadataUrl`, and at the well-known path of its origin.
   */
  get metadata(): Record<string, unknown> {
    return {
      resource: this.oauth.resource,
      authorization_servers: this.oauth.issuers.map(({ issuer }) => issuer),
      scopes_supported: [...new Set(this.oauth.issuers.flatMap(({ scopes }) => scopes))],
      bearer_methods_supported: ['header'],
      resource_name: 'Switchboard',
    };
  }

  /** Where the metadata of the resource is: the well-known path with the resource's own path after it (RFC 9728 §3.1). */
  get metadataUrl(): string {
    const resource = new URL(this.oauth.resource);
    return `${resource.origin}${PROTECTED_RESOURCE_PATH}${resource.pathname === '/' ? '' : resource.pathname}`;
  }

  /** Whether `token` looks like a JWT at all; anything else is left to the API keys. */
  static isJwt(token: string): boolean {
    return token.split('.').length === 3;
  }

  async verify(token: string): Promise<TokenVerdict> {
    let claims: JWTPayload;
    try {
      claims = decodeJwt(token);
    } catch {
      return { kind: 'invalid', why: 'not a JWT' };
    }
    const issuer = this.oauth.issuers.find((candidate) => candidate.issuer === claims.iss);
    if (!issuer) return { kind: 'invalid', why: 'issued by an issuer this server does not trust' };
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await this.keySetOf(issuer), {
        issuer: issuer.issuer,
        audience: [...this.audiences, ...issuer.audiences],
        algorithms: this.oauth.algorithms,
        clockTolerance: this.oauth.clock_skew_secs,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (error) {
      return { kind: 'invalid', why: (error as Error).message };
    }
    const missing = issuer.scopes.filter((scope) => !scopesOf(payload).includes(scope));
    if (missing.length > 0) return { kind: 'insufficient_scope', scope: missing.join(' ') };
    return { kind: 'valid', principal: { name: `${payload.sub}@${new URL(issuer.issuer).host}`, scope: AccessScope.unrestricted } };
  }

  /** Throws, naming them, when some issuers' keys cannot be had now (kept keys are read again once stale): for readiness. */
  async checkKeys(): Promise<void> {
    const failed: string[] = [];
    await Promise.all(
      this.oauth.issuers.map(async (issuer) => {
        try {
          const keySet = await this.keySetOf(issuer);
          if (!keySet.fresh) await keySet.reload();
        } catch (error) {
          failed.push(`${issuer.issuer}: ${(error as Error).message}`);
        }
      }),
    );
    if (failed.length > 0) throw new Error(`signing keys unavailable from ${failed.join('; ')}`);
  }

  private keySetOf(issuer: IssuerConfig): Promise<KeySet> {
    let keySet = this.keySets.get(issuer.issuer);
    if (!keySet) {
      keySet = this.jwksUriOf(issuer).then((uri) => createRemoteJWKSet(new URL(uri), { [customFetch]: this.fetchImpl }));
      // A failed discovery is tried again by the next token, not remembered.
      keySet.catch(() => this.keySets.delete(issuer.issuer));
      this.keySets.set(issuer.issuer, keySet);
    }
    return keySet;
  }

  private async jwksUriOf(issuer: IssuerConfig): Promise<string> {
    if (issuer.jwks_uri) return issuer.jwks_uri;
    for (const path of METADATA_PATHS) {
      const response = await this.fetchImpl(issuer.issuer.replace(/\/$/, '') + path, { headers: { accept: 'application/json' } });
      if (!response.ok) {
        await response.body?.cancel();
        continue;
      }
      const { jwks_uri: uri } = (await response.json()) as { jwks_uri?: unknown };
      if (typeof uri === 'string') return uri;
    }
    throw new Error(`issuer ${issuer.issuer} publishes no jwks_uri in its metadata`);
  }
}

/** OAuth's space-separated `scope`, or the `scp` list some issuers use. */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter(Boolean);
  return Array.isArray(payload.scp) ? payload.scp.filter((scope): scope is string => typeof scope === 'string') : [];
}
