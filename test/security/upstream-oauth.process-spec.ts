/**
 * OAuth 2.1 to upstreams: MCP servers and an external A2A agent behind resource servers that trust a
 * second OpenID provider. Switchboard gets tokens of its own by client credentials (kept, and asked
 * for again when refused or expired), or exchanges the caller's token for one whose audience is the
 * upstream (RFC 8693); the caller's own token never reaches an upstream, and a refusal names the
 * upstream and its challenge.
 */
import type { ChildProcess } from 'node:child_process';
import { decodeJwt } from 'jose';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { UpstreamCredentials } from '../../src/security/oauth/upstream-credentials';
import { textOf } from '../mcp-server/support/mcp-clients';
import { bridgeClientV1, readTask, startedTask, artifactText } from '../mcp-server/support/bridge-clients';
import { serversView, startMcpApp, toolsListed, type McpTestApp } from '../mcp-client/support/mcp-app';
import { killProcess, startEverythingServer } from '../mcp-client/support/mcp-servers';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import { type OidcClient, OidcProvider } from '../support/oidc-provider-process';
import { bearer, startTestApp, testConfig, TEST_API_KEY } from '../support/test-app';
import { TokenCheckingProxy } from '../support/token-checking-proxy';

const RESOURCE = 'http://switchboard.test/mcp';
const ALICE: OidcClient = { client_id: 'alice', client_secret: 'alice-secret-0123456789', scope: 'a2a' };
const SWITCHBOARD: OidcClient = {
  client_id: 'switchboard',
  client_secret: 'switchboard-secret-0123456789',
  scope: 'tools',
};

describe('OAuth 2.1 to upstreams', () => {
  let callerIdp: OidcProvider;
  let upstreamIdp: OidcProvider;
  let everything: ChildProcess;
  let agentHost: { app: NestFastifyApplication; url: string };
  let ownToken: TokenCheckingProxy;
  let exchanged: TokenCheckingProxy;
  let unconfigured: TokenCheckingProxy;
  let agentProxy: TokenCheckingProxy;
  let target: McpTestApp;

  beforeAll(async () => {
    callerIdp = await OidcProvider.start({ clients: [ALICE], scopes: ['a2a'] });
    upstreamIdp = await OidcProvider.start({ clients: [SWITCHBOARD], scopes: ['tools'], trustJwks: callerIdp.jwksUri });
    const everythingPort = await freePort();
    everything = await startEverythingServer('streamableHttp', everythingPort);
    // The external agent: a second Switchboard, open on loopback, reachable only through its resource server.
    agentHost = await startTestApp(testConfig({ SWITCHBOARD_API_KEYS: undefined }));
    const agentPort = Number(new URL(agentHost.url).port);
    [ownToken, exchanged, unconfigured, agentProxy] = await Promise.all([
      TokenCheckingProxy.start({ port: everythingPort }, upstreamIdp),
      TokenCheckingProxy.start({ port: everythingPort }, upstreamIdp),
      TokenCheckingProxy.start({ port: everythingPort }, upstreamIdp),
      TokenCheckingProxy.start({ port: agentPort }, upstreamIdp),
    ]);
    const client = `client_id = "${SWITCHBOARD.client_id}"\nclient_secret = "\${UPSTREAM_CLIENT_SECRET}"\nscope = "tools"`;
    target = await startMcpApp(
      `
[outbound]
allow_hosts = ["127.0.0.1"]
[auth.oauth]
resource = "${RESOURCE}"
[[auth.oauth.issuers]]
issuer = "${callerIdp.issuer}"

[[mcp_servers]]
name = "own"
[mcp_servers.transport]
type = "http"
url = "${ownToken.url}/mcp"
[mcp_servers.transport.auth]
type = "oauth_client_credentials"
issuer = "${upstreamIdp.issuer}"
resource = "${ownToken.url}"
${client}

[[mcp_servers]]
name = "obo"
[mcp_servers.transport]
type = "http"
url = "${exchanged.url}/mcp"
[mcp_servers.transport.auth]
type = "oauth_token_exchange"
token_endpoint = "${upstreamIdp.issuer}/token"
resource = "${exchanged.url}"
${client}

[[mcp_servers]]
name = "bare"
timeout_secs = 5
[mcp_servers.transport]
type = "http"
url = "${unconfigured.url}/mcp"

[[a2a.external_agents]]
name = "remote"
url = "${agentProxy.url}"
[a2a.external_agents.auth]
type = "oauth_token_exchange"
issuer = "${upstreamIdp.issuer}"
resource = "${agentProxy.url}"
${client}
`,
      { UPSTREAM_CLIENT_SECRET: SWITCHBOARD.client_secret! },
    );
    await toolsListed(target.tools, ['mcp_own_echo', 'mcp_obo_echo']);
  });

  afterAll(async () => {
    await target?.app.close();
    await agentHost?.app.close();
    await Promise.all([ownToken, exchanged, unconfigured, agentProxy].map((proxy) => proxy?.close()));
    if (everything) await killProcess(everything);
    await Promise.all([callerIdp?.stop(), upstreamIdp?.stop()]);
  });

  const aliceToken = () => callerIdp.token(ALICE, RESOURCE);
  const echo = async (tool: string, key: string, text: string) => {
    const { client } = await bridgeClientV1(target.url, key);
    try {
      return (await client.callTool({ name: tool, arguments: { message: text } })) as CallToolResult;
    } finally {
      await client.close();
    }
  };

  it('gets a token of its own by client credentials, for the upstream as audience, and keeps it', async () => {
    for (const text of ['one', 'two', 'three'])
      expect(textOf(await echo('mcp_own_echo', TEST_API_KEY, text))).toBe(`Echo: ${text}`);
    const requests = await upstreamIdp.tokenRequests(SWITCHBOARD.client_id);
    expect(requests.filter(({ resource }) => resource === ownToken.url)).toEqual([
      expect.objectContaining({ grant_type: 'client_credentials', status: 200 }),
    ]);
    expect(new Set(ownToken.accepted.map(({ token }) => token)).size).toBe(1);
    expect(ownToken.accepted[0].claims).toMatchObject({
      aud: ownToken.url,
      sub: SWITCHBOARD.client_id,
      iss: upstreamIdp.issuer,
    });
  });

  it('asks for a new token once the upstream refuses the one it has', async () => {
    const before = ownToken.accepted.at(-1)!.token;
    ownToken.revoke(before);
    expect(textOf(await echo('mcp_own_echo', TEST_API_KEY, 'after revocation'))).toBe('Echo: after revocation');
    expect(ownToken.refused).toContain(before);
    expect(ownToken.accepted.at(-1)!.token).not.toBe(before);
  });

  it('asks for a new token shortly before the one it has expires (the clock injected)', async () => {
    let now = Date.now();
    const resource = 'http://renewal.test';
    const credentials = new UpstreamCredentials(
      'test upstream',
      {
        type: 'oauth_client_credentials',
        issuer: upstreamIdp.issuer,
        client_id: SWITCHBOARD.client_id,
        client_secret: SWITCHBOARD.client_secret!,
        resource,
      },
      fetch,
      () => now,
    );
    const first = await credentials.authorization();
    const expiresAt = decodeJwt(first.slice('Bearer '.length)).exp! * 1000;
    now = expiresAt - 31_000;
    expect(await credentials.authorization()).toBe(first);
    now = expiresAt - 29_000;
    expect(await credentials.authorization()).not.toBe(first);
    expect(
      (await upstreamIdp.tokenRequests(SWITCHBOARD.client_id)).filter((request) => request.resource === resource),
    ).toHaveLength(2);
  });

  it("exchanges the caller's token for one whose audience is the upstream, on the caller's behalf", async () => {
    const token = await aliceToken();
    expect(textOf(await echo('mcp_obo_echo', token, 'as alice'))).toBe('Echo: as alice');
    const call = exchanged.accepted.find(({ claims }) => claims.sub === 'alice');
    expect(call?.claims).toMatchObject({
      aud: exchanged.url,
      iss: upstreamIdp.issuer,
      act: { sub: SWITCHBOARD.client_id },
    });
    // Connecting and listing tools were Switchboard's own work, with a token of its own.
    expect(exchanged.accepted[0].claims.sub).toBe(SWITCHBOARD.client_id);
    expect([...exchanged.accepted.map((request) => request.token), ...exchanged.refused]).not.toContain(token);
  });

  it('refuses a call on behalf of a caller that has no token to exchange, and says why', async () => {
    const result = await echo('mcp_obo_echo', TEST_API_KEY, 'as a key');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /MCP server "obo" is reached on behalf of the caller \(token exchange\), and this call has no caller access token/,
    );
  });

  it('names the upstream and what it asked for when it refuses Switchboard', async () => {
    const view = await eventually(
      () => serversView(target.url),
      ({ configured }) => configured.find(({ name }) => name === 'bare')?.status.error !== undefined,
    );
    expect(view.configured.find(({ name }) => name === 'bare')!.status.error).toContain(
      `MCP server "bare" refused the request (401): it asks for Bearer resource_metadata="${unconfigured.url}/.well-known/oauth-protected-resource", error="invalid_token"`,
    );
  });

  it("discovers an external agent with a token of its own, and delegates to it with the caller's exchanged token", async () => {
    await eventually(
      () =>
        fetch(`${target.url}/api/a2a/agents`, { headers: bearer() }).then(
          (response) => response.json() as Promise<{ agents: { name: string; status: { state: string } }[] }>,
        ),
      ({ agents }) => agents.some(({ name, status }) => name === 'remote' && status.state === 'ready'),
    );
    expect(agentProxy.accepted[0].claims.sub).toBe(SWITCHBOARD.client_id);
    const token = await aliceToken();
    const { client } = await bridgeClientV1(target.url, token);
    try {
      const { taskUri } = startedTask(
        await client.callTool({
          name: 'subagent_start',
          arguments: { subagentUri: 'a2a-agent://remote', text: 'delegated' },
        }),
      );
      const task = await eventually(
        () => readTask(client, taskUri),
        (view) => view.state === 'completed',
      );
      expect(artifactText(task)).toBe('delegated');
    } finally {
      await client.close();
    }
    expect(agentProxy.accepted.some(({ claims }) => claims.sub === 'alice' && claims.aud === agentProxy.url)).toBe(
      true,
    );
    expect(agentProxy.accepted.map((request) => request.token)).not.toContain(token);
  });
});
