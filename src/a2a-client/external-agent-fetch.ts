import type { ExternalAgentConfig } from '../config/config.schema';
import { createGuardedFetch } from '../security/guarded-fetch';
import type { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { USER_AGENT } from '../common/version';

/**
 * The fetch every request to one external agent goes through: the SSRF rules (checked again at
 * connect), the agent's deadline and client certificate, and its headers: `User-Agent`, the
 * configured extra headers, then its credentials.
 */
export function externalAgentFetch(agent: ExternalAgentConfig, policy: OutboundUrlPolicy): typeof fetch {
  const guarded = createGuardedFetch(policy, { timeoutMs: agent.timeout_secs * 1000, clientCertificate: agent.client_certificate });
  const fixed = { 'user-agent': USER_AGENT, ...agentHeaders(agent) };
  return (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(fixed)) headers.set(name, value);
    return guarded(input, { ...init, headers });
  };
}

/** The configured extra headers, then the credentials: what every request to `agent` carries, as HTTP headers or gRPC metadata. */
export function agentHeaders(agent: ExternalAgentConfig): Record<string, string> {
  return { ...agent.headers, ...credentialHeaders(agent.auth) };
}

function credentialHeaders(auth: ExternalAgentConfig['auth']): Record<string, string> {
  if (!auth) return {};
  return auth.type === 'bearer' ? { authorization: `Bearer ${auth.token}` } : { [auth.header]: auth.value };
}
