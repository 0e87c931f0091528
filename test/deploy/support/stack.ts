/**
 * The compose stack under test, as run.sh hands it over (DEPLOY_URL, DEPLOY_API_KEY,
 * DEPLOY_ADMIN_KEY, COMPOSE_PROJECT_NAME), and the official clients the deploy specs drive it with from outside.
 */
import { SendMessageRequest, type Task } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { Client as McpClient, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { randomUUID } from 'node:crypto';

const { DEPLOY_URL, DEPLOY_OIDC_URL, DEPLOY_API_KEY, DEPLOY_ADMIN_KEY, COMPOSE_PROJECT_NAME } = process.env;
if (!DEPLOY_URL || !DEPLOY_OIDC_URL || !DEPLOY_API_KEY || !DEPLOY_ADMIN_KEY || !COMPOSE_PROJECT_NAME) {
  throw new Error(
    'run through test/deploy/run.sh (npm run test:deploy): DEPLOY_URL, DEPLOY_OIDC_URL, DEPLOY_API_KEY, DEPLOY_ADMIN_KEY and COMPOSE_PROJECT_NAME are unset',
  );
}
export const url = DEPLOY_URL;
/** The examples profile's OpenID provider, where the host publishes it. */
export const oidcUrl = DEPLOY_OIDC_URL;
/** The clients' key (SWITCHBOARD_API_KEYS in .env). */
export const apiKey = DEPLOY_API_KEY;
/** The operator key (SWITCHBOARD_ADMIN_KEYS in .env), as make-env.sh wrote it. */
export const adminKey = DEPLOY_ADMIN_KEY;
export const composeProject = COMPOSE_PROJECT_NAME;

const withKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${apiKey}`);
  return fetch(input, { ...init, headers });
};

/** The official A2A client for one agent, from its card. */
export function a2a(agent: string): Promise<Client> {
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: withKey }), new RestTransportFactory({ fetchImpl: withKey })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: withKey }),
  }).createFromUrl(url, `/a2a/agents/${agent}/agent-card.json`);
}

/** The official MCP client, connected to the stack's `/mcp` with the key (or an access token); closed by the caller. */
export async function mcp(bearer = apiKey): Promise<McpClient> {
  const client = new McpClient({ name: 'deploy-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', url), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  return client;
}

export function message(text: string): SendMessageRequest {
  return SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });
}

export function artifactText(task: Task): string {
  return task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
}
