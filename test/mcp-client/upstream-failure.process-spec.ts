/**
 * What an operator is told of a stdio MCP server that fails at every start (a real process that
 * writes to stderr and exits): its last stderr lines, how many times in a row it failed and when
 * the next attempt is, through the admin API; other callers see the attempts, not the stderr.
 */
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from '../console/support/operator-key';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';
import type { McpServersView } from '../../src/mcp-client/mcp-servers.view';
import { startMcpApp, stdioServer, type McpTestApp } from './support/mcp-app';
import { FAILING_SERVER_ARGS, FAILING_SERVER_SAYS } from './support/mcp-servers';

let target: McpTestApp;

beforeAll(async () => {
  target = await startMcpApp(
    `${OPERATOR_RULE_TOML}${stdioServer('failing', FAILING_SERVER_ARGS[0], FAILING_SERVER_ARGS.slice(1))}`,
    {
      SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
    },
  );
});

afterAll(async () => {
  await target?.app.close();
});

async function view(path: string, key?: string): Promise<McpServersView['configured'][number]> {
  const response = await fetch(`${target.url}${path}`, { headers: bearer(key) });
  expect(response.status).toBe(200);
  return ((await response.json()) as McpServersView).configured.find((server) => server.name === 'failing')!;
}

describe('a stdio MCP server that fails at every start', () => {
  it('shows operators its last stderr lines, its failures in a row and when it is tried next', async () => {
    const failing = await eventually(
      () => view('/api/admin/mcp-servers', OPERATOR_KEY),
      (server) => server.status.state === 'retrying' && (server.status.failures ?? 0) >= 2,
    );
    const { status } = failing;
    expect(status.error).toBeDefined();
    expect(status.stderr?.slice(-2)).toEqual(['starting', FAILING_SERVER_SAYS]);
    expect(Date.parse(status.nextRetryAt!)).toBeGreaterThan(Date.now() - 1_000);
    expect(Date.parse(status.nextRetryAt!)).toBeLessThan(Date.now() + 31_000);
    expect(failing.transport).toMatchObject({ type: 'stdio', command: process.execPath, args: FAILING_SERVER_ARGS });
  });

  it('keeps counting while each new attempt fails', async () => {
    const before = (await view('/api/admin/mcp-servers', OPERATOR_KEY)).status.failures!;
    const later = await eventually(
      () => view('/api/admin/mcp-servers', OPERATOR_KEY),
      (server) => (server.status.failures ?? 0) > before && server.status.state === 'retrying',
      // The next attempt is due within the wait after `before` failures: 0.5 s doubling, 8 s at the fifth.
      20_000,
    );
    expect(later.status.stderr).toContain(FAILING_SERVER_SAYS);
  });

  it('shows callers without operator rights the attempts, not the server’s stderr', async () => {
    const failing = await view('/api/mcp/servers');
    expect(failing.status.failures).toBeGreaterThanOrEqual(1);
    expect(failing.status).not.toHaveProperty('stderr');
  });
});
