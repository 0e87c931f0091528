import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';
import type { Json } from './json';

const SCRIPT = join(__dirname, 'oidc-provider.mjs');
export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

export interface OidcClient {
  client_id: string;
  /** A confidential client's, sent by HTTP Basic; without one the client is public (PKCE, no client authentication). */
  client_secret?: string;
  /** The scopes it may ask for, space-separated (and `offline_access`, with redirect URIs, as MCP hosts ask for refresh tokens so). */
  scope: string;
  /** Given, the client may use the authorization code flow (with PKCE) and refresh tokens. */
  redirect_uris?: string[];
  /** The subject its user logs in as in that flow, instead of the provider's `loginAs`. */
  loginAs?: string;
}

export interface OidcProviderSettings {
  clients: OidcClient[];
  scopes: string[];
  /** Tokens for resources ending with this live one second. */
  shortLived?: string;
  /** Tokens for resources ending with this are opaque, known only by introspection. */
  opaque?: string;
  /** The subject a user logs in as in the authorization code flow. */
  loginAs?: string;
  /** Extra access token claims by subject (`sub`; a client's own tokens have its client_id). */
  claims?: Record<string, Record<string, unknown>>;
  /** The JWKS that signs subject tokens for token exchange (another provider's `jwksUri`); this provider's own otherwise. */
  trustJwks?: string;
}

/** A token endpoint request as the provider saw it. */
export interface TokenRequest {
  client_id: string;
  grant_type: string;
  resource?: string | string[];
  audience?: string;
  scope?: string;
  status: number;
}

/**
 * A real OpenID provider (`oidc-provider`) in a child process of its own, issuing access tokens for
 * a resource (RFC 8707): by client credentials, by the authorization code flow with PKCE (the
 * user's login and consent done at once, see `authorize`) and by token exchange (RFC 8693); JWTs,
 * or opaque tokens that its introspection endpoint knows (RFC 7662). `stop()` it in afterAll.
 */
export class OidcProvider {
  private constructor(
    readonly issuer: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(settings: OidcProviderSettings): Promise<OidcProvider> {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [SCRIPT, JSON.stringify({ ...settings, port, clients: settings.clients.map(clientMetadata) })],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const issuer = await new Promise<string>((resolve, reject) => {
      child.stdout!.once('data', (line: Buffer) => resolve((JSON.parse(line.toString()) as { issuer: string }).issuer));
      child.once('exit', (code) => reject(new Error(`the OpenID provider exited (${code}) before it listened`)));
    });
    return new OidcProvider(issuer, child);
  }

  get jwksUri(): string {
    return `${this.issuer}/jwks`;
  }

  get introspectionEndpoint(): string {
    return `${this.issuer}/token/introspection`;
  }

  /** An access token for `resource`, got as a service gets one: the client credentials grant. */
  async token(client: OidcClient, resource: string, scope = client.scope): Promise<string> {
    const { body } = await this.requestToken(client, {
      grant_type: 'client_credentials',
      resource,
      ...(scope && { scope }),
    });
    if (!body.access_token) throw new Error(`no token for ${client.client_id}: ${body.error}`);
    return body.access_token as string;
  }

  /** Any token endpoint request, authenticated as `client`; the answer as it came, error or not. */
  requestToken(client: OidcClient, params: Record<string, string>): Promise<{ status: number; body: Json }> {
    return this.post('/token', client, params);
  }

  /** What the provider says of `token` (RFC 7662), asked by a confidential client. */
  async introspect(client: OidcClient, token: string): Promise<Json> {
    return (await this.post('/token/introspection', client, { token })).body;
  }

  /**
   * Follows an authorization request (as a browser would, with cookies) through the user's login
   * and consent, which the provider completes at once as the client's subject, to the redirect back
   * to the client: that URL, with `code` and `state` (or `error`).
   */
  async authorize(authorizationUrl: URL): Promise<URL> {
    const cookies = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const split = pair.indexOf('=');
        cookies.set(pair.slice(0, split), pair.slice(split + 1));
      }
      const location = response.headers.get('location');
      if (!location)
        throw new Error(`the authorization stopped at ${url.pathname} (${response.status}): ${await response.text()}`);
      await response.body?.cancel();
      url = new URL(location, url);
      if (url.origin !== this.issuer) return url;
    }
    throw new Error('the authorization redirected more than 10 times');
  }

  /** The token endpoint requests made as `clientId`, in order. */
  async tokenRequests(clientId: string): Promise<TokenRequest[]> {
    return (
      await fetch(`${this.issuer}/debug/token-requests?client_id=${encodeURIComponent(clientId)}`)
    ).json() as Promise<TokenRequest[]>;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill();
    await exited;
  }

  private async post(
    path: string,
    client: OidcClient,
    params: Record<string, string>,
  ): Promise<{ status: number; body: Json }> {
    const authorization = client.client_secret && {
      authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
    };
    const response = await fetch(`${this.issuer}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...authorization },
      body: new URLSearchParams({ ...params, ...(!authorization && { client_id: client.client_id }) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }
}

/** The provider's metadata of a client: confidential ones use client credentials and token exchange; ones with redirect URIs, the code flow. */
function clientMetadata({ redirect_uris = [], ...client }: OidcClient): Json {
  const confidential = !!client.client_secret;
  const browser = redirect_uris.length > 0;
  return {
    ...client,
    scope: browser ? `${client.scope} offline_access` : client.scope,
    redirect_uris,
    response_types: browser ? ['code'] : [],
    grant_types: [
      ...(confidential ? ['client_credentials', TOKEN_EXCHANGE] : []),
      ...(browser ? ['authorization_code', 'refresh_token'] : []),
    ],
    token_endpoint_auth_method: confidential ? 'client_secret_basic' : 'none',
  };
}
