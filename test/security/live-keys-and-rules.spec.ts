/**
 * API keys and access rules follow the live catalog: a key added authenticates at once, a key
 * removed or past its `expires_at` is refused (401), and a rule added narrows what a key lists at
 * `/mcp` (through the official MCP client).
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { keyDigest } from '../../src/config/file-catalog';
import { LiveCatalog } from '../../src/config/live-catalog';
import { catalogFrom, changeCatalog } from '../support/live-catalog';
import { bearer, startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';
import { connectV1 } from '../mcp-server/support/mcp-clients';
import { writeConfigFile } from '../support/config-file';
import { sdkClient } from '../support/sdk-client';

const ADDED_KEY = 'added-key-0123456789abcdef';
const PLAIN_AGENT_TOML = '[[agents]]\nname = "plain"\n[agents.executor]\ntype = "echo"\n';

const servers = (url: string, key: string) => fetch(`${url}/api/mcp/servers`, { headers: bearer(key) });

describe('keys and rules of the live catalog', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig()));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('authenticates a key once added, and refuses it with 401 once removed', async () => {
    const before = app.get(LiveCatalog).current.keys;
    expect((await servers(url, ADDED_KEY)).status).toBe(401);
    changeCatalog(app, { keys: [...before, { name: 'added', digest: keyDigest(ADDED_KEY) }] });
    expect((await servers(url, ADDED_KEY)).status).toBe(200);
    changeCatalog(app, { keys: before });
    const refused = await servers(url, ADDED_KEY);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    expect((await servers(url, TEST_API_KEY)).status).toBe(200);
  });

  it('refuses a key past its expires_at with 401, as an invalid key', async () => {
    const before = app.get(LiveCatalog).current.keys;
    const expired = { name: 'expired', digest: keyDigest(ADDED_KEY), expires_at: new Date(Date.now() - 1000) };
    changeCatalog(app, { keys: [...before, expired] });
    const refused = await servers(url, ADDED_KEY);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toMatch(/invalid API key/);
    const later = { ...expired, expires_at: new Date(Date.now() + 60_000) };
    changeCatalog(app, { keys: [...before, later] });
    expect((await servers(url, ADDED_KEY)).status).toBe(200);
    changeCatalog(app, { keys: before });
  });

  it('narrows what a key lists at /mcp once a rule is added, and widens it again once it is removed', async () => {
    const listed = async () => {
      const { client } = await connectV1(url);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      await client.close();
      return names;
    };
    expect(await listed()).toEqual(expect.arrayContaining(['web_fetch', 'switchboard_agent_echo']));
    changeCatalog(app, { rules: [{ name: 'tester-fetch-only', keys: ['tester'], tools: ['web_fetch'] }] });
    expect(await listed()).toEqual(['web_fetch']);
    changeCatalog(app, { rules: [] });
    expect(await listed()).toEqual(expect.arrayContaining(['web_fetch', 'switchboard_agent_echo']));
  });
});

describe('a service running open, and the live catalog’s first key', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    const agents = writeConfigFile(`
[[agents]]
name = "support"
skills = [{ id = "faq", name = "FAQ" }]
extended_skills = [{ id = "refunds", name = "Refunds" }]
[agents.executor]
type = "echo"
`);
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: agents, SWITCHBOARD_API_KEYS: undefined })));
  });

  afterAll(async () => {
    await app?.close();
  });

  const publicCard = async () =>
    (await (await fetch(`${url}/a2a/agents/support/agent-card.json`)).json()) as { securitySchemes?: object };

  it('requires a key once the catalog has one, and its cards say so (the extended one offered); open again once it has none', async () => {
    expect((await fetch(`${url}/api/mcp/servers`)).status).toBe(200);
    expect((await publicCard()).securitySchemes).toBeUndefined();
    // An agent added in the same change: the agents kept get new cards all the same.
    const agents = [...app.get(LiveCatalog).current.agents, ...catalogFrom(PLAIN_AGENT_TOML).agents];
    changeCatalog(app, { keys: [{ name: 'first', digest: keyDigest(ADDED_KEY) }], agents });
    expect((await fetch(`${url}/api/mcp/servers`)).status).toBe(401);
    expect((await servers(url, ADDED_KEY)).status).toBe(200);
    expect((await publicCard()).securitySchemes).toHaveProperty('bearer');
    // The SDK client asks for the extended card, which the agent's handler offers once callers authenticate.
    const extended = await (await sdkClient(url, 'support', 'JSONRPC', ADDED_KEY)).getAgentCard();
    expect(extended.skills.map((skill) => skill.id)).toEqual(['faq', 'refunds']);
    changeCatalog(app, { keys: [] });
    expect((await fetch(`${url}/api/mcp/servers`)).status).toBe(200);
    expect((await publicCard()).securitySchemes).toBeUndefined();
  });
});
