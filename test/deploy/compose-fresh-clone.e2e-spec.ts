/**
 * The compose stack exactly as the README starts it from a fresh clone (run.sh clones the commit,
 * refuses the placeholder secrets of .env.example, then writes real ones with docker/make-env.sh):
 * the committed docker/switchboard.toml, the demo agent, the example MCP server and the example
 * OpenID provider, driven from outside with the official A2A and MCP clients.
 */
import { type Task, TaskState } from '@a2a-js/sdk';
import { eventually } from '../support/eventually';
import { decodeJwt } from 'jose';
import { a2a, adminKey, apiKey, artifactText, mcp, message, oidcUrl, url } from './support/stack';

jest.setTimeout(120_000);

describe('docker compose up, from a fresh clone with the default configuration', () => {
  it('serves cards publicly and refuses calls without a key', async () => {
    expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(200);
    expect((await fetch(`${url}/api/a2a/agents`)).status).toBe(401);
  });

  it('answers an A2A send to the demo agent through the official client', async () => {
    const sent = (await (await a2a('echo')).sendMessage(message('hello compose'))) as Task;
    expect(sent.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(sent)).toBe('hello compose');
  });

  it('calls the demo agent and the example MCP server as MCP tools', async () => {
    const client = await mcp();
    try {
      const agent = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'hello mcp' } });
      expect(JSON.stringify(agent.content)).toContain('hello mcp');
      // The example server connects in the background after boot.
      const tools = await eventually(
        async () => (await client.listTools()).tools.map((tool) => tool.name),
        (names) => names.includes('mcp_everything_echo'),
        60_000,
      );
      expect(tools).toContain('mcp_everything_echo');
      const echoed = await client.callTool({
        name: 'mcp_everything_echo',
        arguments: { message: 'through the gateway' },
      });
      expect(JSON.stringify(echoed.content)).toContain('through the gateway');
    } finally {
      await client.close();
    }
  });

  it('opens the console with the operator key make-env wrote, and reads the overview through it', async () => {
    // As the browser posts the login form: from the console's own origin.
    const login = await fetch(`${url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
      body: new URLSearchParams({ api_key: adminKey }),
      redirect: 'manual',
    });
    expect({ status: login.status, location: login.headers.get('location') }).toEqual({
      status: 303,
      location: '/console',
    });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const page = await fetch(`${url}/console`, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Overview');
    const overview = await fetch(`${url}/api/admin/overview`, { headers: { cookie } });
    expect(overview.status).toBe(200);
    const { processes, tasks } = (await overview.json()) as {
      processes: { role: string }[];
      tasks: { byState: Record<string, number> };
    };
    // The API and the two workers of this stack, each keeping its presence in Redis.
    expect(processes.map((process) => process.role).sort()).toEqual(['api', 'worker', 'worker']);
    expect(tasks.byState).toEqual(expect.any(Object));
    // The clients' key reaches the agents, not the console.
    expect((await fetch(`${url}/api/admin/overview`, { headers: { authorization: `Bearer ${apiKey}` } })).status).toBe(
      403,
    );
  });

  it("accepts a token of the examples profile's OpenID provider, got by client credentials as a client on the host gets one", async () => {
    // The client and the resource docker-compose.yml and docker/switchboard.toml set.
    const response = await fetch(`${oidcUrl}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('example-client:example-client-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: 'http://localhost:8080/mcp',
        scope: 'a2a',
      }),
    });
    const { access_token: token } = (await response.json()) as { access_token: string };
    // Issued for the name Switchboard reaches the provider by, whatever address the client used.
    expect(decodeJwt(token)).toMatchObject({
      iss: 'http://oidc-provider:9090',
      aud: 'http://localhost:8080/mcp',
      scope: 'a2a',
    });
    const client = await mcp(token);
    try {
      const agent = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'with a token' } });
      expect(JSON.stringify(agent.content)).toContain('with a token');
    } finally {
      await client.close();
    }
    const readiness = (await (await fetch(`${url}/readyz`)).json()) as { checks: Record<string, unknown> };
    // Switchboard fetched the provider's keys inside the compose network, under its outbound policy.
    expect(readiness.checks.issuers).toEqual({ status: 'up' });
  });
});
