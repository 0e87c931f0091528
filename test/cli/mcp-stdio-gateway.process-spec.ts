/**
 * `switchboard mcp` (embedded, stdio) as a gateway to server-everything: the connection lives as
 * long as its client, so an upstream's sampling request is relayed to the client as a request of
 * its own, and the upstream's resources are offered as on `/mcp`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stdioServer } from '../mcp-client/support/mcp-app';
import { EVERYTHING_SERVER } from '../mcp-client/support/mcp-servers';
import { textOf } from '../mcp-server/support/mcp-clients';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';

const BIN = resolve(__dirname, '../../bin/switchboard.js');
const SAMPLING_TOOL = 'mcp_everything_trigger_sampling_request';

describe('switchboard mcp (embedded) in front of an MCP server', () => {
  let client: Client;

  beforeAll(async () => {
    const env = {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      SWITCHBOARD_CONFIG: writeConfigFile(stdioServer('everything', EVERYTHING_SERVER, ['stdio'])),
    };
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp'],
      cwd: mkdtempSync(join(tmpdir(), 'switchboard-mcp-')),
      env,
      stderr: 'ignore',
    });
    client = new Client({ name: 'stdio-gateway-test', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      model: 'test-model',
      role: 'assistant',
      content: { type: 'text', text: 'sampled over stdio' },
    }));
    await client.connect(transport);
    // The upstream connects after the client did: its tools come with `tools/list_changed`.
    await eventually(
      async () => (await client.listTools()).tools.map((tool) => tool.name),
      (names) => names.includes(SAMPLING_TOOL),
    );
  });

  afterAll(async () => {
    await client?.close();
  });

  it("relays the upstream's sampling request to the client and its answer back", async () => {
    const result = await client.callTool({ name: SAMPLING_TOOL, arguments: { prompt: 'hello' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('sampled over stdio');
  });

  it("offers the upstream's resources, namespaced, and reads them", async () => {
    const { resources } = await client.listResources();
    const upstream = resources.find((resource) => resource.uri.startsWith('mcp://everything/'));
    expect(upstream).toBeDefined();
    expect((await client.readResource({ uri: upstream!.uri })).contents).toEqual([
      expect.objectContaining({ uri: upstream!.uri }),
    ]);
  });
});
