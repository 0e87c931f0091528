import { isDeepStrictEqual } from 'node:util';
import { createRemoteJWKSet, customFetch, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import type { SwitchboardConfig } from '../config/config.schema';
import type { LiveCatalog } from '../config/live-catalog';
import type { AccessPolicy } from './access-policy';
import { issuerEndpoint } from './oauth/issuer-metadata';
import { KeptOnSuccess } from './oauth/kept-on-success';
import { KeptTokenAnswers } from './oauth/kept-token-answers';
import { TokenIntrospection, type IntrospectingIssuer } from './oauth/token-introspection';
import type { Principal } from './principal';

type OAuthConfig = NonNullable<SwitchboardConfig['auth']['oauth']>;
type IssuerConfig = OAuthConfig['issuers'][number];
type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** What a presented access token turned out to be. `insufficient_scope` names the scopes it lacks. */
export type TokenVerdict =
  | { kind: 'valid'; principal: Principal }
  | { kind: 'invalid'; why: string }
  | { kind: 'insufficient_scope'; scope: string };

/** RFC 9728's well-known path of a protected resource's metadata. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/**
 * Access tokens as principals: a JWT is verified locally against its issuer's published keys
 * (fetched once, found from the issuer's metadata unless configured, and fetched again when a token
 * names a key not seen yet, so keys rotate without a restart), for this resource's audience, within
 * the clock skew, with an allowed algorithm; any other token is asked about at the issuers that
 * introspect (RFC 7662), and must name this resource in `aud` as well. Then it must carry the
 * issuer's required scopes (and its tenant claim, when one is configured). The principal is the
 * token's subject at its issuer (`sub@host`, `tenant/sub@host`), which scopes tasks as a key's name
 * does; what it may reach is the access policy's word on its claims. A token's text never appears
 * in a verdict. A verified token's verdict is kept until it expires, or until the access rules change.
 */
export class TokenVerifier {
  private readonly keySets = new KeptOnSuccess<KeySet>();
  private readonly verified = new KeptTokenAnswers<TokenVerdict>();
  private readonly audiences: string[];
  private readonly introspection: TokenIntrospection;

  constructor(
    private readonly oauth: OAuthConfig,
    a2aListenPath: string,
    private readonly policy: AccessPolicy,
    private readonly fetchImpl: typeof fetch,
    catalog: LiveCatalog,
  ) {
    this.audiences = [oauth.resource, new URL(a2aListenPath, oauth.resource).href];
    const introspecting = oauth.issuers.filter(
      (issuer): issuer is IssuerConfig & IntrospectingIssuer => issuer.introspection !== undefined,
    );
    this.introspection = new TokenIntrospection(introspecting, fetchImpl, oauth.introspection_cache_secs);
    // Kept verdicts carry the scopes the old rules gave; the policy, made first, has the new ones when this runs.
    catalog.onChange((next, previous) => {
      if (!isDeepStrictEqual(next.rules, previous.rules)) this.verified.clear();
    });
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

  /** Whether a bearer value that is no API key may be a token: a JWT, or anything once an issuer introspects. */
  accepts(token: string): boolean {
    return isJwt(token) || this.introspection.enabled;
  }

  verify(token: string): Promise<TokenVerdict> {
    return isJwt(token) ? this.verifyJwt(token) : this.verifyOpaque(token);
  }

  /** A verified token's verdict is kept until it expires: clients send one token many times, and checking its signature is the cost. */
  private async verifyJwt(token: string): Promise<TokenVerdict> {
    const digest = KeptTokenAnswers.digest(token);
    const kept = this.verified.get(digest);
    if (kept) return kept.answer;
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
    const verdict = this.verdictOf(issuer, payload);
    this.verified.keep(digest, verdict, payload.exp! * 1000);
    return verdict;
  }

  private async verifyOpaque(token: string): Promise<TokenVerdict> {
    const active = await this.introspection.introspect(token).catch((error: Error) => ({ failed: error.message }));
    if (!active) return { kind: 'invalid', why: 'no issuer calls the token active' };
    if ('failed' in active) return { kind: 'invalid', why: active.failed };
    const issuer = this.oauth.issuers.find((candidate) => candidate.issuer === active.issuer)!;
    const audiences = [active.claims.aud].flat();
    if (![...this.audiences, ...issuer.audiences].some((audience) => audiences.includes(audience)))
      return { kind: 'invalid', why: 'issued for another audience' };
    // A client's own token (client credentials) may be introspected without `sub`: the client is its subject.
    const sub = active.claims.sub ?? active.claims.client_id;
    if (typeof sub !== 'string') return { kind: 'invalid', why: 'the introspection answer names no subject' };
    return this.verdictOf(issuer, { ...active.claims, sub });
  }

  /** A verified token's scopes, tenant and principal. */
  private verdictOf(issuer: IssuerConfig, claims: JWTPayload): TokenVerdict {
    const missing = issuer.scopes.filter((scope) => !scopesOf(claims).includes(scope));
    if (missing.length > 0) return { kind: 'insufficient_scope', scope: missing.join(' ') };
    const tenant = issuer.tenant_claim === undefined ? '' : claims[issuer.tenant_claim];
    if (typeof tenant !== 'string')
      return { kind: 'invalid', why: `the token carries no "${issuer.tenant_claim}" (tenant) claim` };
    const name = `${tenant && `${tenant}/`}${claims.sub}@${new URL(issuer.issuer).host}`;
    return {
      kind: 'valid',
      principal: { name, scope: this.policy.scopeOf({ kind: 'token', principal: name, claims }) },
    };
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
    return this.keySets.get(issuer.issuer, async () => {
      const uri = issuer.jwks_uri ?? (await issuerEndpoint(this.fetchImpl, issuer.issuer, 'jwks_uri'));
      return createRemoteJWKSet(new URL(uri), { [customFetch]: this.fetchImpl });
    });
  }
}

function isJwt(token: string): boolean {
  return token.split('.').length === 3;
}

/** OAuth's space-separated `scope`, or the `scp` list some issuers use. */
function scopesOf(payload: JWTPayload): string[] {
  if (typeof payload.scope === 'string') return payload.scope.split(' ').filter(Boolean);
  return Array.isArray(payload.scp) ? payload.scp.filter((scope): scope is string => typeof scope === 'string') : [];
}
