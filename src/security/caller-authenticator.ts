import { Inject, Injectable, Optional } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import { ApiKeyService, BearerVerdict } from './api-key.service';
import { bearerCredentials } from './bearer-token';
import type { Principal } from './principal';
import { TokenVerifier } from './token-verifier';

/**
 * A request's credentials checked against the API keys and, when configured, the trusted token
 * issuers; a valid one says which it was.
 */
export type CallerVerdict =
  | { kind: 'valid'; principal: Principal; by: 'key' }
  /** `accessToken` is for exchanges on the caller's behalf (RFC 8693), never to be sent on or logged. */
  | { kind: 'valid'; principal: Principal; by: 'token'; accessToken: string }
  | Exclude<BearerVerdict, { kind: 'valid' }>
  | { kind: 'insufficient_scope'; scope: string };

const REALM = 'Bearer realm="switchboard"';

/**
 * Who is calling, for every face that authenticates (the HTTP guard, gRPC, a worker's `/metrics`):
 * an API key, else an access token from a trusted issuer (`auth.oauth`). A bearer value that is a
 * configured key is a key; only one that is not is verified as a token.
 */
@Injectable()
export class CallerAuthenticator {
  /** Each request is checked once: the rate-limit guard and the auth guard both ask. */
  private readonly verdicts = new WeakMap<object, Promise<CallerVerdict>>();

  constructor(
    private readonly apiKeys: ApiKeyService,
    @Optional() @Inject(TokenVerifier) private readonly tokens?: TokenVerifier | null,
  ) {}

  /** False when neither keys nor issuers are configured: the service then runs open (see listen-policy.ts). */
  get required(): boolean {
    return this.apiKeys.required || !!this.tokens;
  }

  authenticate(request: { headers: IncomingHttpHeaders }): Promise<CallerVerdict> {
    let verdict = this.verdicts.get(request);
    if (!verdict) this.verdicts.set(request, (verdict = this.check(request)));
    return verdict;
  }

  private async check(request: { headers: IncomingHttpHeaders }): Promise<CallerVerdict> {
    const verdict = this.apiKeys.verifyRequest(request);
    if (verdict.kind === 'valid') return { ...verdict, by: 'key' };
    if (verdict.kind !== 'invalid' || !this.tokens) return verdict;
    const credentials = bearerCredentials(request.headers.authorization);
    if (credentials.kind !== 'token' || !this.tokens.accepts(credentials.token)) return verdict;
    const token = await this.tokens.verify(credentials.token);
    if (token.kind === 'valid') return { ...token, by: 'token', accessToken: credentials.token };
    return token.kind === 'invalid' ? { kind: 'invalid' } : token;
  }

  /** The console's session (its cookie holds an API key): a key, never a token. */
  authenticateSession(key: string): CallerVerdict {
    const principal = this.apiKeys.verify(key);
    return principal ? { kind: 'valid', principal, by: 'key' } : { kind: 'invalid' };
  }

  /** What a refused bearer value is called: with issuers configured, it may have been either. */
  get invalidMessage(): string {
    return this.tokens ? 'invalid API key or access token' : 'invalid API key';
  }

  /**
   * The `WWW-Authenticate` challenge of a refusal: with issuers configured, it names the protected
   * resource metadata (RFC 9728), which MCP hosts follow to find where to get a token.
   */
  challenge(error?: string): string {
    const parts = [
      REALM,
      ...(this.tokens ? [`resource_metadata="${this.tokens.metadataUrl}"`] : []),
      ...(error ? [error] : []),
    ];
    return parts.join(', ');
  }
}
