/**
 * API keys and access rules follow the live catalog: a key added authenticates at once, a key
 * removed or past its `expires_at` is refused (401), and a rule added narrows what a key lists at
 * `/mcp` (through the official MCP client).
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { keyDigest } from '../../src/config/file-catalog';
import { LiveCatalog } from '../../src/config/live-catalog';
import { changeCatalog } from '../support/live-catalog';
import { bearer, startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';
import { connectV1 } from '../mcp-server/support/mcp-clients';

const ADDED_KEY = 'added-key-0123456789abcdef';

describe('keys and rules of the live catalog', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig()));
  });

  afterAll(async () => {
    await app?.close();
  });

  const servers = (key: string) => fetch(`${url}/api/mcp/servers`, { headers: bearer(key) });

  it('authenticates a key once added, and refuses it with 401 once removed', async () => {
    const before = app.get(LiveCatalog).current.keys;
    expect((await servers(ADDED_KEY)).status).toBe(401);
    changeCatalog(app, { keys: [...before, { name: 'added', digest: keyDigest(ADDED_KEY) }] });
    expect((await servers(ADDED_KEY)).status).toBe(200);
    changeCatalog(app, { keys: before });
    const refused = await servers(ADDED_KEY);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    expect((await servers(TEST_API_KEY)).status).toBe(200);
  });

  it('refuses a key past its expires_at with 401, as an invalid key', async () => {
    const before = app.get(LiveCatalog).current.keys;
    const expired = { name: 'expired', digest: keyDigest(ADDED_KEY), expires_at: new Date(Date.now() - 1000) };
    changeCatalog(app, { keys: [...before, expired] });
    const refused = await servers(ADDED_KEY);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toMatch(/invalid API key/);
    const later = { ...expired, expires_at: new Date(Date.now() + 60_000) };
    changeCatalog(app, { keys: [...before, later] });
    expect((await servers(ADDED_KEY)).status).toBe(200);
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
