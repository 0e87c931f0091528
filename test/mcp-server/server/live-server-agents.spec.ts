/**
 * A live server (one per stdio connection) follows the catalog's agents: an agent added becomes a
 * `switchboard_agent_*` tool and the client hears `notifications/tools/list_changed`; removed, its
 * tool goes the same way.
 */
import { ServerCallContext } from '@a2a-js/sdk/server';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { INestApplicationContext } from '@nestjs/common';
import { createAppContext } from '../../../src/app.factory';
import { configSchema } from '../../../src/config/config.schema';
import { AccessScope } from '../../../src/security/access-scope';
import type { LiveMcpServer } from '../../../src/mcp-server/server/switchboard-mcp-server.factory';
import { SwitchboardMcpServerFactory } from '../../../src/mcp-server/server/switchboard-mcp-server.factory';
import { catalogFrom, changeCatalog } from '../../support/live-catalog';
import { toolListWatch } from '../support/tool-list-watch';

const config = configSchema.parse({ log: { level: 'silent' }, agents: [{ name: 'echo', executor: { type: 'echo' } }] });
const GREETER = catalogFrom('[[agents]]\nname = "greeter"\n[agents.executor]\ntype = "echo"\n').agents;

describe('a live MCP server and the catalog’s agents', () => {
  let app: INestApplicationContext;
  let live: LiveMcpServer;
  let client: Client;
  const watch = toolListWatch();

  beforeAll(async () => {
    app = await createAppContext(config, 'stdio');
    live = app.get(SwitchboardMcpServerFactory).createLive({
      owner: 'alice',
      scope: AccessScope.unrestricted,
      context: new ServerCallContext({ user: { isAuthenticated: true, userName: 'alice' } }),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await live.server.connect(serverSide);
    client = new Client({ name: 'live-server-spec', version: '1.0.0' }, { listChanged: watch.listChanged });
    await client.connect(clientSide);
  });

  afterAll(async () => {
    await client?.close();
    live?.stop();
    await app?.close();
  });

  it('lists an agent added to the catalog, and no longer one removed, telling the client each time', async () => {
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names()).toContain('switchboard_agent_echo');
    changeCatalog(app, { agents: [...config.agents, ...GREETER] });
    await watch.announced((listed) => listed.includes('switchboard_agent_greeter'));
    changeCatalog(app, { agents: config.agents });
    await watch.announced((listed) => !listed.includes('switchboard_agent_greeter'));
    expect(await names()).toEqual(expect.arrayContaining(['switchboard_agent_echo']));
    expect(await names()).not.toContain('switchboard_agent_greeter');
  });
});
