import type { ExternalAgentConfig } from '../config/config.schema';
import { redactedUrl } from '../security/redacted-url';
import type { ExternalAgent, ExternalAgentStatus } from './external-agent';

export interface ExternalAgentView {
  name: string;
  url: string;
  card_path?: string;
  /** `config` for `[[a2a.external_agents]]`, else the ARDF manifest's id. */
  source: string;
  trusted: boolean;
  timeout_secs: number;
  task_timeout_secs: number;
  /** The kind of credentials and where they go; never their values. */
  auth?:
    | { type: 'bearer' }
    | { type: 'api_key'; header: string }
    | { type: 'oauth_client_credentials' | 'oauth_token_exchange'; authorization_server: string };
  headers: Record<string, string>;
  client_certificate: boolean;
  status: ExternalAgentStatus;
  card?: {
    name: string;
    description: string;
    version: string;
    streaming: boolean;
    skills: { id: string; name: string; description: string }[];
  };
}

/** `GET /api/a2a/agents`: each external agent with its status and a summary of its card, secrets redacted. */
export interface ExternalAgentsView {
  agents: ExternalAgentView[];
  total: number;
}

export function describeExternalAgents(agents: ExternalAgent[]): ExternalAgentsView {
  return { agents: agents.map(describe), total: agents.length };
}

function describe(agent: ExternalAgent): ExternalAgentView {
  const { config, card } = agent;
  return {
    name: config.name,
    url: redactedUrl(config.url),
    ...(config.card_path !== undefined && { card_path: config.card_path }),
    source: config.manifest ? `manifest:${config.manifest.id}` : 'config',
    trusted: config.trusted,
    timeout_secs: config.timeout_secs,
    task_timeout_secs: config.task_timeout_secs,
    ...(config.auth && { auth: authKind(config.auth) }),
    headers: Object.fromEntries(Object.keys(config.headers).map((name) => [name, '[redacted]'])),
    client_certificate: config.client_certificate !== undefined,
    status: agent.status(),
    ...(card && {
      card: {
        name: card.name,
        description: card.description,
        version: card.version,
        streaming: card.capabilities?.streaming === true,
        skills: card.skills.map(({ id, name, description }) => ({ id, name, description })),
      },
    }),
  };
}

function authKind(auth: NonNullable<ExternalAgentConfig['auth']>): NonNullable<ExternalAgentView['auth']> {
  if (auth.type === 'bearer') return { type: 'bearer' };
  if (auth.type === 'api_key') return { type: 'api_key', header: auth.header };
  return { type: auth.type, authorization_server: (auth.token_endpoint ?? auth.issuer)! };
}
