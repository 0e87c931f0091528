import { createHash } from 'node:crypto';
import type { UpstreamOAuthConfig } from '../../config/auth.schema';
import { clientBasicAuthorization, issuerEndpoint } from './issuer-metadata';
import { KeptOnSuccess } from './kept-on-success';
import { actingAs, followWhomWorkIsFor } from './on-behalf-of';
import { UpstreamAuthError } from './upstream-auth.error';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
/** A token is renewed this long before it expires, so none is sent in its last seconds. */
const RENEW_MARGIN_MS = 30_000;
/** How long a token whose answer gave no `expires_in` is used (until a 401 says otherwise). */
const DEFAULT_LIFETIME_MS = 5 * 60_000;
/** Exchanged tokens kept at most, one per caller token; beyond it the oldest go first. */
const MAX_EXCHANGED = 1_000;

interface Issued {
  token: string;
  renewAt: number;
}

/**
 * Switchboard's access token for one upstream (`auth` of an MCP server or external agent): by client
 * credentials, kept until shortly before it expires; or by exchanging the caller's token (RFC 8693)
 * for one whose audience is the upstream, kept per caller token. With token exchange, Switchboard's
 * own work (connecting, listing tools) uses a token of the same client by client credentials, and a
 * call for a caller without a token is refused rather than made as Switchboard. Tokens never appear
 * in errors.
 */
export class UpstreamCredentials {
  private readonly endpoint = new KeptOnSuccess<string>();
  private readonly issued = new Map<string, Promise<Issued>>();

  constructor(
    /** Names the upstream in errors: `MCP server "github"`. */
    readonly upstream: string,
    private readonly config: UpstreamOAuthConfig,
    private readonly fetchImpl: typeof fetch,
    private readonly now: () => number = Date.now,
  ) {
    if (config.type === 'oauth_token_exchange') followWhomWorkIsFor();
  }

  /** The `Authorization` value for a request to the upstream now. */
  async authorization(): Promise<string> {
    const subject = this.subjectTokenOfCall();
    const key = keyOf(subject);
    const kept = this.issued.get(key);
    const issued = kept && (await kept).renewAt > this.now() ? kept : this.renew(key, subject);
    return `Bearer ${(await issued).token}`;
  }

  /** Forgets the token this call would use, after the upstream refused it: the next call asks for another. */
  forget(): void {
    this.issued.delete(keyOf(this.subjectTokenOfCall()));
  }

  private renew(key: string, subject: string | undefined): Promise<Issued> {
    this.issued.delete(key);
    if (this.issued.size >= MAX_EXCHANGED) this.issued.delete(this.issued.keys().next().value!);
    const issued = this.request(subject);
    issued.catch(() => this.issued.get(key) === issued && this.issued.delete(key));
    this.issued.set(key, issued);
    return issued;
  }

  /** The caller's token to exchange, or undefined for a token of Switchboard's own. */
  private subjectTokenOfCall(): string | undefined {
    if (this.config.type === 'oauth_client_credentials') return undefined;
    const acting = actingAs();
    if (acting === 'switchboard') return undefined;
    if (acting === undefined) {
      throw new UpstreamAuthError(
        `${this.upstream} is reached on behalf of the caller (token exchange), and this call has no caller access token: the caller used an API key, or the call runs in an agent's turn`,
      );
    }
    return acting;
  }

  private async request(subject: string | undefined): Promise<Issued> {
    const { config } = this;
    const grant: Record<string, string> =
      subject === undefined
        ? { grant_type: 'client_credentials' }
        : {
            grant_type: TOKEN_EXCHANGE,
            subject_token: subject,
            subject_token_type: ACCESS_TOKEN_TYPE,
            requested_token_type: ACCESS_TOKEN_TYPE,
            ...(config.type === 'oauth_token_exchange' && config.audience && { audience: config.audience }),
          };
    const requestedAt = this.now();
    const response = await this.fetchImpl(await this.tokenEndpoint(), {
      method: 'POST',
      headers: {
        authorization: clientBasicAuthorization(config),
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams({
        ...grant,
        ...(config.scope && { scope: config.scope }),
        ...(config.resource && { resource: config.resource }),
      }),
    });
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    if (!response.ok || typeof body.access_token !== 'string') {
      const reason =
        [body.error, body.error_description].filter((part) => typeof part === 'string').join(': ') ||
        'no access token in the answer';
      throw new UpstreamAuthError(
        `${this.upstream}: its authorization server gave no token (${response.status}, ${reason})`,
      );
    }
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in * 1000 : DEFAULT_LIFETIME_MS;
    return { token: body.access_token, renewAt: requestedAt + lifetime - Math.min(RENEW_MARGIN_MS, lifetime / 2) };
  }

  private tokenEndpoint(): Promise<string> {
    const { issuer, token_endpoint: endpoint } = this.config;
    return endpoint
      ? Promise.resolve(endpoint)
      : this.endpoint.get(issuer!, () => issuerEndpoint(this.fetchImpl, issuer!, 'token_endpoint'));
  }
}

/** Where a token is kept: one of Switchboard's own, or one per caller token (by digest, not the token). */
function keyOf(subject: string | undefined): string {
  return subject === undefined ? '' : createHash('sha256').update(subject).digest('base64url');
}
