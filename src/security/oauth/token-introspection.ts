import { clientBasicAuthorization, issuerEndpoint } from './issuer-metadata';
import { KeptOnSuccess } from './kept-on-success';
import { KeptTokenAnswers } from './kept-token-answers';

export interface IntrospectingIssuer {
  issuer: string;
  introspection: { endpoint?: string; client_id: string; client_secret: string };
}

/** An active token's claims as its issuer told them, with the issuer that answered. */
export interface IntrospectedToken {
  issuer: string;
  claims: Record<string, unknown>;
}

/**
 * Opaque access tokens, checked at their issuers' RFC 7662 introspection endpoints (in the order
 * configured; the first that calls a token active is its issuer). An active answer is kept for
 * `cacheSecs` at most, and never past the token's `exp`; an inactive one for as long, so a replayed
 * bad token does not cost a round trip each time. Tokens are kept as digests.
 */
export class TokenIntrospection {
  private readonly endpoints = new KeptOnSuccess<string>();
  private readonly kept: KeptTokenAnswers<IntrospectedToken | undefined>;

  constructor(
    private readonly issuers: readonly IntrospectingIssuer[],
    private readonly fetchImpl: typeof fetch,
    private readonly cacheSecs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.kept = new KeptTokenAnswers(now);
  }

  get enabled(): boolean {
    return this.issuers.length > 0;
  }

  /** The active token's issuer and claims, or undefined when no issuer calls it active. Throws when an issuer cannot be asked. */
  async introspect(token: string): Promise<IntrospectedToken | undefined> {
    const digest = KeptTokenAnswers.digest(token);
    const kept = this.kept.get(digest);
    if (kept) return kept.answer;
    const answer = await this.ask(token);
    let until = this.now() + this.cacheSecs * 1000;
    if (typeof answer?.claims.exp === 'number') until = Math.min(until, answer.claims.exp * 1000);
    this.kept.keep(digest, answer, until);
    return answer;
  }

  private async ask(token: string): Promise<IntrospectedToken | undefined> {
    for (const issuer of this.issuers) {
      const response = await this.fetchImpl(await this.endpointOf(issuer), {
        method: 'POST',
        headers: {
          authorization: clientBasicAuthorization(issuer.introspection),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`the introspection endpoint of ${issuer.issuer} answered ${response.status}`);
      }
      const claims = (await response.json()) as Record<string, unknown>;
      // An issuer that names another in `iss` is not vouching for its own token.
      if (claims.active === true && (claims.iss === undefined || claims.iss === issuer.issuer))
        return { issuer: issuer.issuer, claims };
    }
    return undefined;
  }

  private endpointOf(issuer: IntrospectingIssuer): Promise<string> {
    const { endpoint } = issuer.introspection;
    return endpoint
      ? Promise.resolve(endpoint)
      : this.endpoints.get(issuer.issuer, () =>
          issuerEndpoint(this.fetchImpl, issuer.issuer, 'introspection_endpoint'),
        );
  }
}
