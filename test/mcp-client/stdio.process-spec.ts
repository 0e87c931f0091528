import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpToolTimeoutError } from '../../src/mcp-client/mcp-client.errors';
import { eventually } from '../support/eventually';
import { TEST_API_KEY } from '../support/test-app';
import {
  firstText,
  serverState,
  serversView,
  startMcpApp,
  stdioServer,
  toolsListed,
  type McpTestApp,
} from './support/mcp-app';
import { childProcesses, EVERYTHING_SERVER, FILESYSTEM_SERVER, isAlive } from './support/mcp-servers';

const SECRET = 'MCP_TEST_SECRET';
const ALLOWED = 'MCP_TEST_ALLOWED';
const files = mkdtempSync(join(tmpdir(), 'switchboard-mcp-fs-'));
let target: McpTestApp;

beforeAll(async () => {
  writeFileSync(join(files, 'hello.txt'), 'hello from disk');
  // Both in the environment the config is loaded from and in this process's own.
  const serviceEnv = { [SECRET]: 'service-secret-value', [ALLOWED]: 'whitelisted-value' };
  Object.assign(process.env, serviceEnv);
  target = await startMcpApp(
    stdioServer('everything', EVERYTHING_SERVER, ['stdio'], `timeout_secs = 3\nenv = ["${ALLOWED}"]`) +
      stdioServer('filesystem', FILESYSTEM_SERVER, [files]),
    serviceEnv,
  );
  await toolsListed(target.tools, ['mcp_everything_echo', 'mcp_filesystem_list_directory']);
});

afterAll(async () => {
  await target?.app.close();
  delete process.env[SECRET];
  delete process.env[ALLOWED];
});

describe('MCP servers over stdio', () => {
  it('discovers the tools of server-everything and server-filesystem, namespaced', () => {
    const names = target.tools.list().map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'mcp_everything_echo',
        'mcp_everything_get_env',
        'mcp_everything_trigger_long_running_operation',
        'mcp_filesystem_list_directory',
        'mcp_filesystem_read_text_file',
      ]),
    );
    const echo = target.tools.list().find((tool) => tool.name === 'mcp_everything_echo')!;
    expect(echo).toMatchObject({
      server: 'everything',
      serverToolName: 'echo',
      description: expect.stringMatching(/^\[MCP:everything\] /),
    });
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { message: expect.any(Object) } });
  });

  it('round-trips a call', async () => {
    expect(firstText(await target.tools.call('mcp_everything_echo', { message: 'hi there' }))).toBe('Echo: hi there');
    const listing = await target.tools.call('mcp_filesystem_list_directory', { path: files });
    expect(firstText(listing)).toContain('hello.txt');
  });

  it('gives the server only PATH and its whitelisted variables', async () => {
    const env = JSON.parse(firstText(await target.tools.call('mcp_everything_get_env', {}))) as Record<string, string>;
    expect(env).toEqual({ PATH: process.env.PATH, [ALLOWED]: 'whitelisted-value' });
    expect(JSON.stringify(env)).not.toContain('service-secret-value');
  });

  it('enforces the timeout: the caller’s when shorter, else the server’s timeout_secs', async () => {
    const slow = { duration: 10, steps: 2 };
    let started = Date.now();
    await expect(
      target.tools.call('mcp_everything_trigger_long_running_operation', slow, { timeoutMs: 300 }),
    ).rejects.toThrow(McpToolTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
    started = Date.now();
    await expect(
      target.tools.call('mcp_everything_trigger_long_running_operation', slow, { timeoutMs: 60_000 }),
    ).rejects.toMatchObject({
      name: 'McpToolTimeoutError',
      timeoutMs: 3000,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  });

  it('stops a call when its signal aborts', async () => {
    const controller = new AbortController();
    // Aborted while the server runs the call: at its first progress report, half a second in.
    const onprogress = () => controller.abort(new Error('caller gave up'));
    await expect(
      target.tools.call(
        'mcp_everything_trigger_long_running_operation',
        { duration: 10, steps: 20 },
        { signal: controller.signal, onprogress },
      ),
    ).rejects.toThrow('caller gave up');
  });

  it('answers GET /api/mcp/servers in the seed’s shape, behind the API key', async () => {
    expect((await fetch(`${target.url}/api/mcp/servers`)).status).toBe(401);
    const view = await serversView(target.url);
    expect(view.configured).toEqual([
      {
        name: 'everything',
        timeout_secs: 3,
        env: [ALLOWED],
        transport: { type: 'stdio', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
        status: { state: 'connected', era: 'legacy', protocolVersion: expect.any(String), failures: 0 },
      },
      {
        name: 'filesystem',
        timeout_secs: 30,
        env: [],
        transport: { type: 'stdio', command: process.execPath, args: [FILESYSTEM_SERVER, files] },
        status: expect.objectContaining({ state: 'connected' }),
      },
    ]);
    const everything = view.connected.find((entry) => entry.name === 'everything')!;
    expect(everything).toMatchObject({ connected: true, tools_count: everything.tools.length });
    expect(everything.tools).toContainEqual({
      name: 'mcp_everything_echo',
      description: expect.stringMatching(/^\[MCP:everything\] /),
    });
    expect(view.connected.map((entry) => entry.name).sort()).toEqual(['everything', 'filesystem']);
    expect(JSON.stringify(view)).not.toContain(TEST_API_KEY);
  });

  it('does not retry a call the server may have run before it died', async () => {
    const [pid] = childProcesses(EVERYTHING_SERVER);
    // Killed while it runs the call: at its first progress report, half a second in.
    let killed = false;
    const onprogress = () => {
      if (!killed) process.kill(pid, 'SIGKILL');
      killed = true;
    };
    const call = target.tools.call(
      'mcp_everything_trigger_long_running_operation',
      { duration: 2, steps: 4 },
      { onprogress },
    );
    await expect(call).rejects.toMatchObject({
      name: 'McpServerUnavailableError',
      message: expect.stringMatching(/not retried/),
    });
    await serverState(target.url, 'everything', 'connected');
  });

  it('restarts a killed server and reconnects, leaving no stray process', async () => {
    const [before] = childProcesses(EVERYTHING_SERVER);
    expect(before).toBeGreaterThan(0);
    process.kill(before, 'SIGKILL');
    await eventually(
      async () => childProcesses(EVERYTHING_SERVER),
      (pids) => pids.length === 1 && pids[0] !== before,
    );
    await serverState(target.url, 'everything', 'connected');
    expect(firstText(await target.tools.call('mcp_everything_echo', { message: 'back' }))).toBe('Echo: back');
    expect(isAlive(before)).toBe(false);
  });

  it('ends every server process when the service shuts down', async () => {
    const pids = [...childProcesses(EVERYTHING_SERVER), ...childProcesses(FILESYSTEM_SERVER)];
    expect(pids).toHaveLength(2);
    await target.app.close();
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
