import type { UpstreamOAuthConfig } from '../config/auth.schema';
import type { ExternalAgentConfig } from '../config/config.schema';
import { createGuardedFetch } from '../security/guarded-fetch';
import { UpstreamCredentials } from '../security/oauth/upstream-credentials';
import { upstreamFetch } from '../security/oauth/upstream-fetch';
import type { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { USER_AGENT } from '../common/version';

/** How every request to one external agent is made: over HTTP (`fetch`), and the headers of a gRPC call. */
export interface ExternalAgentAccess {
  fetch: typeof fetch;
  /** The configured extra headers, then the credentials (an OAuth token got now, when `auth` is OAuth): a gRPC call's metadata. */
  headers(): Promise<Record<string, string>>;
}

/**
 * The fetch every request to one external agent goes through: the SSRF rules (checked again at
 * connect), the agent's deadline and client certificate, and its headers: `User-Agent`, the
 * configured extra headers, then its credentials. A 401 names the agent and what it asked for.
 */
export function externalAgentAccess(agent: ExternalAgentConfig, policy: OutboundUrlPolicy): ExternalAgentAccess {
  const guarded = createGuardedFetch(policy, {
    timeoutMs: agent.timeout_secs * 1000,
    clientCertificate: agent.client_certificate,
  });
  const upstream = `external agent "${agent.name}"`;
  const oauth = oauthOf(agent.auth);
  const credentials = oauth && new UpstreamCredentials(upstream, oauth, guarded);
  const fixed = { ...agent.headers, ...staticCredentialHeaders(agent.auth) };
  const withFixed: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries({ 'user-agent': USER_AGENT, ...fixed })) headers.set(name, value);
    return guarded(input, { ...init, headers });
  };
  return {
    fetch: upstreamFetch(withFixed, upstream, credentials),
    headers: async () => ({ ...fixed, ...(credentials && { authorization: await credentials.authorization() }) }),
  };
}

function oauthOf(auth: ExternalAgentConfig['auth']): UpstreamOAuthConfig | undefined {
  return auth?.type === 'oauth_client_credentials' || auth?.type === 'oauth_token_exchange' ? auth : undefined;
}

function staticCredentialHeaders(auth: ExternalAgentConfig['auth']): Record<string, string> {
  if (auth?.type === 'bearer') return { authorization: `Bearer ${auth.token}` };
  if (auth?.type === 'api_key') return { [auth.header]: auth.value };
  return {};
}
