/**
 * The authenticated extended agent card: an agent's `extended_skills` are shown only to callers
 * that present an API key, through GetExtendedAgentCard (v1.0 JSON-RPC and HTTP+JSON, with the SDK
 * client) and v0.3's `agent/getAuthenticatedExtendedCard`; the public card declares that it exists.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeConfigFile } from '../support/config-file';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import { type Binding, sdkClient } from '../support/sdk-client';
import type { Json } from '../support/json';

const AGENTS_TOML = `
[[agents]]
name = "support"
skills = [{ id = "faq", name = "FAQ" }]
extended_skills = [{ id = "refunds", name = "Refunds", description = "Issues refunds" }]
[agents.executor]
type = "echo"

[[agents]]
name = "plain"
skills = [{ id = "faq", name = "FAQ" }]
[agents.executor]
type = "echo"
`;

describe('authenticated extended agent card', () => {
  let app: NestFastifyApplication;
  let url: string;

  const publicCard = async (agent: string): Promise<Json> =>
    (await fetch(`${url}/a2a/agents/${agent}/agent-card.json`)).json() as Promise<Json>;
  const rpc = async (
    agent: string,
    method: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${url}/a2a/agents/${agent}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const legacyRpc = (agent: string, headers: Record<string, string>) =>
    rpc(agent, 'agent/getAuthenticatedExtendedCard', headers);

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(AGENTS_TOML) })));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('declares the extended card in the public card (v1.0 and v0.3 fields), which keeps the extended skills out', async () => {
    const card = await publicCard('support');
    expect(card.capabilities.extendedAgentCard).toBe(true);
    expect(card.supportsAuthenticatedExtendedCard).toBe(true);
    expect(card.skills.map((skill: Json) => skill.id)).toEqual(['faq']);
  });

  it.each<Binding>(['JSONRPC', 'HTTP+JSON'])(
    'v1.0 GetExtendedAgentCard over %s answers the card with the extended skills',
    async (binding) => {
      // The SDK client asks for the extended card when the public one declares it.
      const client = await sdkClient(url, 'support', binding);
      const card = await client.getAgentCard();
      expect(card.skills.map((skill) => skill.id)).toEqual(['faq', 'refunds']);
      expect(card.capabilities?.extendedAgentCard).toBe(true);
    },
  );

  it('v0.3 agent/getAuthenticatedExtendedCard answers the card with the extended skills', async () => {
    const { body } = await legacyRpc('support', bearer());
    expect(body.result.skills.map((skill: Json) => skill.id)).toEqual(['faq', 'refunds']);
  });

  it('shows nothing to a caller without a key', async () => {
    const { status } = await legacyRpc('support', {});
    expect(status).toBe(401);
  });

  it('for an agent without extended skills: not declared, and the method is unsupported (v1.0 -32004), its card not configured (v0.3 -32007)', async () => {
    const card = await publicCard('plain');
    expect(card.capabilities.extendedAgentCard).toBeUndefined();
    expect(card.supportsAuthenticatedExtendedCard).toBeUndefined();
    const current = await rpc('plain', 'GetExtendedAgentCard', { ...bearer(), 'a2a-version': '1.0' });
    expect(current.body.error.code).toBe(-32004);
    const legacy = await legacyRpc('plain', bearer());
    expect(legacy.body.error.code).toBe(-32007);
  });
});
