/**
 * The catalog's admin API on a durable service (real Postgres and Redis): entries created, read,
 * changed and deleted with their versions, secrets sealed at rest and never answered, the file's
 * entries read-only, bad input refused naming the field, and every change in the audit trail.
 */
import { parse as parseToml } from 'smol-toml';
import { Client } from 'pg';
import { LiveCatalog } from '../../src/config/live-catalog';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from '../console/support/operator-key';
import { writeConfigFile } from '../support/config-file';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import type { Json } from '../support/json';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { bearer } from '../support/test-app';

const SECRET = 'upstream-secret-that-must-never-be-shown-0001';
const FILE_SERVER_TOML = `
[[mcp_servers]]
name = "from-file"
transport = { type = "http", url = "https://mcp.example.com/mcp" }
`;

describe('catalog admin API (durable)', () => {
  let service: DurableTestApp;
  let live: LiveCatalog;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${service.url}/api/admin${path}`, {
      method,
      headers: {
        ...bearer(OPERATOR_KEY),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: (text && text.startsWith('{') ? JSON.parse(text) : {}) as Json,
    };
  };
  const httpServer = (name: string, extra: Json = {}) => ({
    name,
    transport: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { authorization: `Bearer ${SECRET}` } },
    ...extra,
  });

  beforeAll(async () => {
    service = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(`${OPERATOR_RULE_TOML}\n${TEST_AGENTS_TOML}\n${FILE_SERVER_TOML}`),
      SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
      SWITCHBOARD_CATALOG_KEY: 'catalog-key-for-tests-0123456789abcdef',
    });
    live = service.app.get(LiveCatalog);
  });

  afterAll(() => service?.close());

  it('creates an MCP server with its secret sealed at rest, redacted in answers, and in use on this process', async () => {
    const created = await call('POST', '/mcp-servers', httpServer('docs'));
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    expect(created.headers.get('location')).toBe('/api/admin/mcp-servers/docs');
    expect(created.body).toMatchObject({
      kind: 'mcp_servers',
      name: 'docs',
      source: 'api',
      version: 1,
      entry: { transport: { headers: { authorization: '********' } } },
    });
    expect(live.current.mcp_servers.find(({ name }) => name === 'docs')?.transport).toMatchObject({
      headers: { authorization: `Bearer ${SECRET}` },
    });
    const database = new Client({ connectionString: service.database.url });
    await database.connect();
    try {
      const { rows } = await database.query(`SELECT body::text AS body FROM catalog_entries WHERE name = 'docs'`);
      expect(rows[0].body).toMatch(/enc:v1:/);
      expect(rows[0].body).not.toContain(SECRET);
    } finally {
      await database.end();
    }
  });

  it('reads one entry with its ETag, and refuses a PUT whose If-Match is stale with 412', async () => {
    const read = await call('GET', '/mcp-servers/docs');
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
    const stale = await call('PUT', '/mcp-servers/docs', httpServer('docs', { timeout_secs: 5 }), {
      'if-match': '"7"',
    });
    expect(stale.status).toBe(412);
    expect(stale.body.currentVersion).toBe(1);
    const changed = await call(
      'PUT',
      '/mcp-servers/docs',
      { ...read.body.entry, timeout_secs: 5 },
      { 'if-match': '"1"' },
    );
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ version: 2, entry: { timeout_secs: 5 } });
    // The redacted value sent back kept the stored secret.
    expect(live.current.mcp_servers.find(({ name }) => name === 'docs')).toMatchObject({
      timeout_secs: 5,
      transport: { headers: { authorization: `Bearer ${SECRET}` } },
    });
  });

  it('gives 50 concurrent PUTs one version each, and of 50 with one If-Match lets exactly one through', async () => {
    const puts = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        call('PUT', '/mcp-servers/docs', httpServer('docs', { timeout_secs: index + 1 })),
      ),
    );
    expect(puts.map(({ status }) => status)).toEqual(Array(50).fill(200));
    const versions = puts.map(({ body }) => body.version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 50 }, (_, index) => index + 3));

    const racing = await Promise.all(
      Array.from({ length: 50 }, () => call('PUT', '/mcp-servers/docs', httpServer('docs'), { 'if-match': '"52"' })),
    );
    expect(racing.filter(({ status }) => status === 200)).toHaveLength(1);
    expect(racing.filter(({ status }) => status === 412)).toHaveLength(49);
    expect((await call('GET', '/mcp-servers/docs')).body.version).toBe(53);
  });

  it("refuses to change the file's entries, naming the file, and a name taken", async () => {
    const file = service.config.source_file!;
    for (const attempt of [
      call('POST', '/mcp-servers', httpServer('from-file')),
      call('PUT', '/mcp-servers/from-file', httpServer('from-file')),
      call('DELETE', '/mcp-servers/from-file'),
    ]) {
      const { status, body } = await attempt;
      expect(status).toBe(409);
      expect(body.message).toContain(file);
      expect(body.message).toContain('from-file');
    }
    expect((await call('POST', '/mcp-servers', httpServer('docs'))).status).toBe(409);
    expect((await call('PUT', '/mcp-servers/nowhere', httpServer('nowhere'))).status).toBe(404);
  });

  it('refuses bad entries with 400 naming the field, never storing them', async () => {
    const problems = async (body: unknown, path = '/mcp-servers') => {
      const answer = await call('POST', path, body);
      expect(answer.status).toBe(400);
      return answer.body.problems as string[];
    };
    expect(await problems({ ...httpServer('bad-key'), bogus: 1 })).toEqual(['bogus: unknown key']);
    expect(await problems({ name: 'bad-url', transport: { type: 'http', url: 'not a url' } })).toEqual([
      expect.stringMatching(/^transport\.url: /),
    ]);
    expect(await problems({ name: 'bad name!', transport: { type: 'http', url: 'https://a.example' } })).toEqual([
      expect.stringMatching(/^name: /),
    ]);
    expect(
      await problems({
        name: 'own-var',
        transport: { type: 'http', url: 'https://a.example', headers: { x: '${DATABASE_URL}' } },
      }),
    ).toEqual([
      expect.stringMatching(/^transport\.headers\.x: \$\{DATABASE_URL\} is one of Switchboard's own settings/),
    ]);
    expect(
      await problems({ name: 'metadata', transport: { type: 'http', url: 'http://169.254.169.254/mcp' } }),
    ).toEqual([expect.stringMatching(/^transport\.url: .*metadata/)]);
    expect(await problems([1, 2])).toEqual([expect.stringMatching(/^<body>: must be a JSON object/)]);
    expect(await problems({ keys: ['x'], tools: ['*'] }, '/rules')).toEqual([expect.stringMatching(/^name: /)]);

    const stdio = await call('POST', '/mcp-servers', { name: 'shell', transport: { type: 'stdio', command: 'sh' } });
    expect(stdio.status).toBe(403);
    expect(stdio.body.message).toContain('catalog.allow_stdio_from_api');
    const names = (await call('GET', '/catalog')).body.entries.mcp_servers.map(({ name }: Json) => name);
    expect(names).toEqual(['from-file', 'docs']);
  });

  it('creates a key answered once, listed without it, and deletes it', async () => {
    const created = await call('POST', '/keys', { name: 'ci', agents: ['echo'], expires_at: '2099-01-01T00:00:00Z' });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^sbk_/);
    const key = created.body.key as string;
    const listed = await call('GET', '/keys');
    expect(listed.body.entries.map(({ name, source }: Json) => `${source}:${name}`)).toEqual([
      'file:tester',
      'file:operator',
      'api:ci',
    ]);
    expect(listed.text).not.toContain(key);
    expect(listed.text).not.toContain('digest');
    expect(live.current.keys.find(({ name }) => name === 'ci')).toMatchObject({
      expires_at: new Date('2099-01-01T00:00:00Z'),
      grant: { agents: ['echo'] },
    });
    expect((await call('POST', '/keys', { name: 'old', expires_at: '2001-01-01T00:00:00Z' })).status).toBe(400);
    expect((await call('PUT', '/keys/ci', { name: 'ci' })).status).toBe(405);
    expect((await call('DELETE', '/keys/ci')).status).toBe(204);
    expect(live.current.keys.map(({ name }) => name)).toEqual(['tester', 'operator']);
  });

  it('refuses to delete an external agent an agent delegates to', async () => {
    expect((await call('POST', '/external-agents', { name: 'remote', url: 'https://agent.example.com' })).status).toBe(
      201,
    );
    const agent = { name: 'gateway', executor: { type: 'a2a', agent: 'remote' } };
    expect((await call('POST', '/agents', agent)).status).toBe(201);
    const refused = await call('DELETE', '/external-agents/remote');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('agents.gateway.executor.agent');
    expect((await call('DELETE', '/agents/gateway')).status).toBe(204);
    expect((await call('DELETE', '/external-agents/remote')).status).toBe(204);
  });

  it('lists the whole catalog by source, and as a TOML file that loads', async () => {
    const { body } = await call('GET', '/catalog');
    expect(body.revision).toEqual(expect.any(Number));
    expect(body.entries.mcp_servers.map(({ name, source }: Json) => `${source}:${name}`)).toEqual([
      'file:from-file',
      'api:docs',
    ]);
    const toml = await call('GET', '/catalog?format=toml');
    expect(toml.status).toBe(200);
    expect(toml.headers.get('content-type')).toContain('application/toml');
    expect(toml.text).not.toContain(SECRET);
    const document = parseToml(toml.text) as Json;
    expect(document.mcp_servers.map(({ name }: Json) => name)).toEqual(['from-file', 'docs']);
    expect(document.mcp_servers[1].transport.headers.authorization).toBe(
      '${SWITCHBOARD_SECRET_DOCS_TRANSPORT_HEADERS_AUTHORIZATION}',
    );
    expect((await call('GET', '/catalog?format=yaml')).status).toBe(400);
  });

  it("lists each kind's entries beside the MCP servers' and agents' status views", async () => {
    const servers = await call('GET', '/mcp-servers');
    expect(servers.body.configured.map(({ name }: Json) => name)).toEqual(['from-file', 'docs']);
    expect(servers.body.entries.map(({ name, source, version }: Json) => `${source}:${name}@${version}`)).toEqual([
      'file:from-file@1',
      'api:docs@53',
    ]);
    expect(servers.text).not.toContain(SECRET);
    const agents = await call('GET', '/agents');
    expect(agents.body.hosted.map(({ name }: Json) => name)).toContain('echo');
    expect(agents.body.entries.map(({ name, source }: Json) => `${source}:${name}`)).toEqual(
      agents.body.hosted.map(({ name }: Json) => `file:${name}`),
    );
    expect((await call('GET', '/external-agents')).body.entries).toEqual([]);
  });

  it('records every change with its actor, before and after, and no secret', async () => {
    const audit = async (query: string) => {
      const response = await fetch(`${service.url}/api/admin/audit?${query}`, { headers: bearer(OPERATOR_KEY) });
      const text = await response.text();
      expect(text).not.toContain(SECRET);
      return JSON.parse(text) as Json;
    };
    const first = await audit('target=mcp_server:docs');
    const rest = await audit(`target=mcp_server:docs&pageToken=${first.nextPageToken}`);
    const entries = [...first.entries, ...rest.entries];
    expect(entries).toHaveLength(53);
    expect(entries.at(-1)).toMatchObject({
      actor: 'operator',
      action: 'catalog.create',
      detail: { version: 1, after: { name: 'docs', transport: { headers: { authorization: '********' } } } },
    });
    expect(entries.at(-2)).toMatchObject({
      action: 'catalog.update',
      detail: { version: 2, before: { name: 'docs' }, after: { timeout_secs: 5 } },
    });
    const keys = await audit('target=key:ci');
    expect(keys.entries.map(({ action }: Json) => action)).toEqual(['catalog.delete', 'catalog.create']);
  });

  it('refuses the admin API to a key without operator rights', async () => {
    const response = await fetch(`${service.url}/api/admin/catalog`, { headers: bearer() });
    expect(response.status).toBe(403);
  });
});
