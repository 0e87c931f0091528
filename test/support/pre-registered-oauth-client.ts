import type {
  OAuthClientProvider as OAuthClientProviderV2,
  OAuthDiscoveryState,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthClientProvider as OAuthClientProviderV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OidcClient } from './oidc-provider-process';

/**
 * An MCP host's OAuth client, for the transports of both SDK generations: registered at the
 * provider beforehand (no dynamic registration), keeping its PKCE verifier, tokens and what it
 * discovered in memory (the 2.x SDK checks the code's issuer against the one discovered).
 * Where a host would send its user to the authorization URL, it keeps the URL for the test to
 * follow (`OidcProvider.authorize`) and hand the code to the transport's `finishAuth`.
 */
export class PreRegisteredOAuthClient implements OAuthClientProviderV1, OAuthClientProviderV2 {
  /** The last authorization URL the SDK sent the user to. */
  authorizationUrl?: URL;
  private verifier?: string;
  private saved?: StoredOAuthTokens;
  private discovered?: OAuthDiscoveryState;

  readonly redirectUrl: string;

  constructor(private readonly client: OidcClient) {
    const [redirectUrl] = client.redirect_uris ?? [];
    if (!redirectUrl) throw new Error(`${client.client_id} has no redirect URI for the authorization code flow`);
    this.redirectUrl = redirectUrl;
  }

  get clientMetadata() {
    return {
      client_name: this.client.client_id,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.client.client_secret ? 'client_secret_basic' : 'none',
      scope: this.client.scope,
    };
  }

  clientInformation() {
    return { client_id: this.client.client_id, client_secret: this.client.client_secret };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovered = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovered;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier: the authorization never started');
    return this.verifier;
  }
}
