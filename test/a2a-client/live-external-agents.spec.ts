/**
 * External agents follow the live catalog: one added is discovered (its card read) and gets a
 * delegate that delegation runs its tasks through; one changed is replaced, and so is the executor
 * of an agent forwarding to it; one removed is stopped and leaves `GET /api/a2a/agents`. The peer is
 * another Switchboard, in this process.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ExternalAgents } from '../../src/a2a-client/external-agents.service';
import type { ExternalAgentsView } from '../../src/a2a-client/external-agents.view';
import { AgentHandlers } from '../../src/a2a-server/agent-handlers.service';
import { AgentRegistry } from '../../src/agents/agent-registry.service';
import { artifactText, asTask, sdkClient, userMessage } from '../support/sdk-client';
import { eventually } from '../support/eventually';
import { catalogFrom, changeCatalog } from '../support/live-catalog';
import { writeConfigFile } from '../support/config-file';
import { bearer, startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';

describe('external agents of the live catalog', () => {
  let peer: { app: NestFastifyApplication; url: string };
  let gateway: { app: NestFastifyApplication; url: string };

  beforeAll(async () => {
    peer = await startTestApp(testConfig());
    const outbound = writeConfigFile('[outbound]\nallow_hosts = ["127.0.0.1"]\n');
    gateway = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: outbound }));
  });

  afterAll(async () => {
    await gateway?.app.close();
    await peer?.app.close();
  });

  /** The external agent `peer` at `path` of the peer, and `relay`, an agent that forwards to it. */
  const withPeerAt = (path: string) =>
    catalogFrom(`
[[a2a.external_agents]]
name = "peer"
url = "${peer.url}${path}"
auth = { type = "bearer", token = "${TEST_API_KEY}" }

[[agents]]
name = "relay"
[agents.executor]
type = "a2a"
agent = "peer"
`);
  const relayed = async (text: string) => {
    const client = await sdkClient(gateway.url, 'relay', 'JSONRPC');
    return artifactText(asTask(await client.sendMessage(userMessage(text))));
  };

  const listed = async (): Promise<ExternalAgentsView> =>
    (await (await fetch(`${gateway.url}/api/a2a/agents`, { headers: bearer() })).json()) as ExternalAgentsView;

  it('discovers an external agent once added, with a delegate to run its tasks', async () => {
    expect((await listed()).total).toBe(0);
    const { external_agents, agents } = withPeerAt('/a2a/agents/echo');
    changeCatalog(gateway.app, { external_agents, agents });
    const view = await eventually(listed, ({ agents }) => agents[0]?.status.state === 'ready');
    expect(view.agents[0]).toMatchObject({ name: 'peer', card: { name: 'echo' } });
    expect(gateway.app.get(AgentHandlers).findDelegate('peer')).toBeDefined();
    expect(await relayed('through the peer')).toBe('through the peer');
  });

  it('replaces an external agent whose config changed, and the executor of an agent forwarding to it', async () => {
    const before = gateway.app.get(ExternalAgents).get('peer');
    const relay = gateway.app.get(AgentRegistry).find('relay')!.executor;
    changeCatalog(gateway.app, { external_agents: withPeerAt('/a2a/agents/echo/').external_agents });
    expect(gateway.app.get(ExternalAgents).get('peer')).not.toBe(before);
    expect(gateway.app.get(AgentRegistry).find('relay')!.executor).not.toBe(relay);
    await eventually(listed, ({ agents }) => agents[0]?.status.state === 'ready');
    expect(await relayed('through the new peer')).toBe('through the new peer');
  });

  it('stops an external agent once removed: it leaves the list, and its delegate goes', async () => {
    changeCatalog(gateway.app, { external_agents: [], agents: [] });
    expect(await listed()).toEqual({ agents: [], total: 0 });
    expect(gateway.app.get(AgentHandlers).findDelegate('peer')).toBeUndefined();
  });
});
