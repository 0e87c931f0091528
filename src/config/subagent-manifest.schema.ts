/**
 * ARDF `subagent@v0.1`: how a subagent (an external A2A agent) is published as an MCP resource,
 * written from the ARDF bridge's description (`schemas/subagent.v0.1.json` there). Values may hold
 * `${VAR}` references, resolved from the environment when the manifest is loaded.
 */
export const SUBAGENT_MANIFEST_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://switchboard.dev/schemas/ardf/subagent.v0.1.json',
  title: 'ARDF subagent@v0.1',
  type: 'object',
  required: ['type', 'id', 'name', 'a2a', 'mcpBridge', 'taskResourceTemplate'],
  properties: {
    type: { const: 'subagent' },
    /** Stable and unique: the resource is `a2a-agent://{id}`. */
    id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$' },
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    version: { type: 'string' },
    a2a: {
      type: 'object',
      required: ['agentCardUri'],
      properties: {
        agentCardUri: { type: 'string', pattern: '^https?://[^\\s/?#]+' },
        preferredTransport: { enum: ['JSONRPC', 'HTTP+JSON', 'GRPC'] },
        /** Which of the card's skills the subagent offers. */
        skills: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id'],
            properties: {
              id: { type: 'string', minLength: 1 },
              name: { type: 'string' },
              description: { type: 'string' },
            },
          },
        },
      },
    },
    security: {
      type: 'object',
      properties: {
        auth: {
          oneOf: [
            {
              type: 'object',
              required: ['type', 'token'],
              properties: {
                type: { enum: ['oauth2', 'bearer'] },
                token: { type: 'string', minLength: 1 },
                scopes: { type: 'array', items: { type: 'string' } },
              },
            },
            {
              type: 'object',
              required: ['type', 'name', 'value'],
              properties: {
                type: { const: 'apiKey' },
                in: { const: 'header' },
                name: { type: 'string', pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
                value: { type: 'string', minLength: 1 },
              },
            },
          ],
        },
        mtls: {
          type: 'object',
          required: ['enabled'],
          properties: {
            enabled: { type: 'boolean' },
            /** PEM text (typically `${CLIENT_CERT_PEM}`). */
            clientCert: { type: 'string', minLength: 1 },
            clientKey: { type: 'string', minLength: 1 },
            ca: { type: 'string', minLength: 1 },
          },
          if: { properties: { enabled: { const: true } } },
          then: { required: ['clientCert', 'clientKey'] },
        },
      },
    },
    mcpBridge: {
      type: 'object',
      required: ['tools'],
      properties: {
        tools: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { enum: ['subagent_start', 'subagent_send', 'subagent_cancel'] } },
          },
          contains: { properties: { name: { const: 'subagent_start' } } },
        },
      },
    },
    taskResourceTemplate: { const: 'a2a://task/{taskId}' },
    /** The agent's endpoints as the bridge saw them; informative: the card decides where requests go. */
    capabilities: { type: 'object' },
  },
} as const;

export interface SubagentManifest {
  type: 'subagent';
  id: string;
  name: string;
  description?: string;
  version?: string;
  a2a: {
    agentCardUri: string;
    preferredTransport?: string;
    skills?: { id: string; name?: string; description?: string }[];
  };
  security?: {
    auth?:
      | { type: 'oauth2' | 'bearer'; token: string; scopes?: string[] }
      | { type: 'apiKey'; in?: 'header'; name: string; value: string };
    mtls?: { enabled: boolean; clientCert?: string; clientKey?: string; ca?: string };
  };
  mcpBridge: { tools: { name: 'subagent_start' | 'subagent_send' | 'subagent_cancel' }[] };
  taskResourceTemplate: 'a2a://task/{taskId}';
  capabilities?: Record<string, unknown>;
}
