/**
 * `listToolsOnce`, what "Test connection" runs: a server connected once, its tools listed, and the
 * connection closed either way (a stdio server's process ended), within the server's timeout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServerConfig } from '../../src/config/config.schema';
import { McpServerUnavailableError } from '../../src/mcp-client/mcp-client.errors';
import { listToolsOnce } from '../../src/mcp-client/mcp-server-probe';
import { OutboundUrlPolicy } from '../../src/security/outbound-url-policy';
import { eventually } from '../support/eventually';
import { childProcesses, EVERYTHING_SERVER, FAILING_SERVER_ARGS, FAILING_SERVER_SAYS } from './support/mcp-servers';

const policy = new OutboundUrlPolicy({ allowHosts: ['127.0.0.1'] });

function stdio(name: string, args: string[]): McpServerConfig {
  return {
    name,
    timeout_secs: 10,
    env: [],
    env_values: { PATH: process.env.PATH! },
    transport: { type: 'stdio', command: process.execPath, args },
  };
}

describe('listToolsOnce', () => {
  it("lists a stdio server's tools and ends its process", async () => {
    const tools = await listToolsOnce(stdio('everything', [EVERYTHING_SERVER, 'stdio']), policy);
    expect(tools.map(({ name }) => name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    await eventually(
      async () => childProcesses(EVERYTHING_SERVER),
      (pids) => pids.length === 0,
    );
  });

  it('fails with why when the server exits', async () => {
    const failing = stdio('failing', FAILING_SERVER_ARGS);
    const refusal = listToolsOnce(failing, policy);
    await expect(refusal).rejects.toBeInstanceOf(McpServerUnavailableError);
    await expect(refusal).rejects.toThrow(/^MCP server "failing" is unavailable: /);
    expect(childProcesses(FAILING_SERVER_SAYS)).toEqual([]);
  });

  describe('a server that never answers', () => {
    let silent: Server;
    let port: number;
    beforeAll(async () => {
      silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      port = (silent.address() as AddressInfo).port;
    });
    afterAll(async () => {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('is given up on after its timeout', async () => {
      const started = Date.now();
      await expect(
        listToolsOnce(
          {
            name: 'silent',
            timeout_secs: 1,
            env: [],
            transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} },
          },
          policy,
        ),
      ).rejects.toThrow(/^MCP server "silent" is unavailable: /);
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });
});
