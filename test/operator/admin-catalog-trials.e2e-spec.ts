/**
 * "Test connection" and "Fetch card" of the admin API on a durable service: an entry's body tried
 * once without saving it. Bad bodies are refused as a create refuses them; an upstream that cannot be
 * reached answers 502 with why; a real one (server-everything over Streamable HTTP, the service's own
 * card) answers what it offers, and nothing is stored.
 */
import type { ChildProcess } from 'node:child_process';
import { killProcess, startEverythingServer } from '../mcp-client/support/mcp-servers';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from '../console/support/operator-key';
import { writeConfigFile } from '../support/config-file';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { freePort } from '../support/free-port';
import type { Json } from '../support/json';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { bearer, TEST_API_KEY } from '../support/test-app';

describe('trying catalog entries before saving them (durable)', () => {
  let service: DurableTestApp;
  let everything: ChildProcess;
  let everythingPort: number;
  let nobodyPort: number;
  const post = async (path: string, body: unknown, key = OPERATOR_KEY) => {
    const response = await fetch(`${service.url}/api/admin${path}`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  const httpServer = (name: string, port: number) => ({
    name,
    transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp` },
    timeout_secs: 5,
  });

  beforeAll(async () => {
    [everythingPort, nobodyPort] = [await freePort(), await freePort()];
    everything = await startEverythingServer('streamableHttp', everythingPort);
    service = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(
        `${OPERATOR_RULE_TOML}\n${TEST_AGENTS_TOML}\n[outbound]\nallow_hosts = ["127.0.0.1"]\n`,
      ),
      SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
    });
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    if (everything) await killProcess(everything);
  });

  describe('POST /api/admin/mcp-servers/test', () => {
    it('lists the tools of a server it can reach, and stores nothing', async () => {
      const { status, body } = await post('/mcp-servers/test', httpServer('everything', everythingPort));
      expect(status).toBe(200);
      const echo = (body.tools as Json[]).find((tool) => tool.name === 'echo');
      expect(echo?.description).toEqual(expect.any(String));
      const catalog = (await (
        await fetch(`${service.url}/api/admin/catalog`, { headers: bearer(OPERATOR_KEY) })
      ).json()) as Json;
      expect(catalog.entries.mcp_servers).toEqual([]);
    });

    it('answers 502 with the reason when nothing listens', async () => {
      const { status, body } = await post('/mcp-servers/test', httpServer('nobody', nobodyPort));
      expect(status).toBe(502);
      expect(body).toMatchObject({ statusCode: 502, error: 'Bad Gateway' });
      expect(body.message).toContain('MCP server "nobody" is unavailable');
    });

    it('refuses a bad body with 400 naming the field, as a create would', async () => {
      const { status, body } = await post('/mcp-servers/test', { name: 'broken', transport: { type: 'http' } });
      expect(status).toBe(400);
      expect(body.problems).toEqual([expect.stringMatching(/^transport\.url: /)]);
      expect((await post('/mcp-servers/test', ['not', 'an', 'object'])).status).toBe(400);
    });

    it('refuses a stdio server (403) and a host the SSRF rules forbid (400)', async () => {
      const stdio = await post('/mcp-servers/test', {
        name: 'local',
        transport: { type: 'stdio', command: 'node', args: ['-e', 'process.exit(0)'] },
      });
      expect(stdio.status).toBe(403);
      expect(stdio.body.message).toContain('allow_stdio_from_api');
      const metadata = await post('/mcp-servers/test', {
        name: 'metadata',
        transport: { type: 'http', url: 'http://169.254.169.254/mcp' },
      });
      expect(metadata.status).toBe(400);
      expect(metadata.body.problems).toEqual([expect.stringMatching(/^transport\.url: /)]);
    });

    it('is for operators only', async () => {
      expect((await post('/mcp-servers/test', httpServer('everything', everythingPort), TEST_API_KEY)).status).toBe(
        403,
      );
    });
  });

  describe('POST /api/admin/external-agents/fetch-card', () => {
    it("answers an agent's card as it publishes it, and where it was read", async () => {
      const { status, body } = await post('/external-agents/fetch-card', { name: 'self', url: service.url });
      expect(status).toBe(200);
      expect(body.cardUrl).toBe(`${service.url}/.well-known/agent-card.json`);
      expect(body.card.name).toBe('echo');
    });

    it('answers 502 with the reason when nothing listens', async () => {
      const { status, body } = await post('/external-agents/fetch-card', {
        name: 'nobody',
        url: `http://127.0.0.1:${nobodyPort}`,
      });
      expect(status).toBe(502);
      expect(body.message).toMatch(/^external agent "nobody": /);
    });

    it('refuses a bad body with 400 naming the field', async () => {
      const { status, body } = await post('/external-agents/fetch-card', { name: 'no-url' });
      expect(status).toBe(400);
      expect(body.problems).toEqual([expect.stringMatching(/^url: /)]);
    });
  });
});
