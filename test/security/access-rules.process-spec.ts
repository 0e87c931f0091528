/**
 * One access policy over keys and tokens (`[[auth.rules]]`), against a real OpenID provider: rules
 * matching a token's principal (with its tenant) and claims, and a key's name, decide what `/mcp`
 * lists and calls and which agents A2A reaches; opaque tokens are known by introspection (RFC 7662).
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { connectV1, textOf } from '../mcp-server/support/mcp-clients';
import { writeConfigFile } from '../support/config-file';
import { type OidcClient, OidcProvider } from '../support/oidc-provider-process';
import { sendWithToken } from '../support/send-with-token';
import { bearer, startTestApp, testConfig, TEST_API_KEY } from '../support/test-app';

const RESOURCE = 'http://switchboard.test/mcp';
const OPAQUE_RESOURCE = 'http://switchboard.test/opaque';
const client = (client_id: string): OidcClient => ({
  client_id,
  client_secret: `${client_id}-secret-0123456789`,
  scope: 'a2a',
});
const ALICE = client('alice');
const BOB = client('bob');
const CAROL = client('carol');
const DROPOUT = client('dropout');
const INTROSPECTOR = client('switchboard');

describe('access rules over keys and tokens', () => {
  let provider: OidcProvider;
  let app: NestFastifyApplication;
  let url: string;
  let host: string;

  beforeAll(async () => {
    provider = await OidcProvider.start({
      clients: [ALICE, BOB, CAROL, DROPOUT, INTROSPECTOR],
      scopes: ['a2a'],
      opaque: '/opaque',
      claims: {
        alice: { tid: 'acme', groups: ['eng'] },
        bob: { tid: 'acme', groups: ['sales'] },
        carol: { tid: 'globex', groups: ['eng'] },
        dropout: { groups: ['eng'] },
      },
    });
    host = new URL(provider.issuer).host;
    const config = `
[outbound]
allow_hosts = ["127.0.0.1"]
[auth]
default_access = "none"
[auth.oauth]
resource = "${RESOURCE}"
[[auth.oauth.issuers]]
issuer = "${provider.issuer}"
audiences = ["${OPAQUE_RESOURCE}"]
tenant_claim = "tid"
introspection = { client_id = "${INTROSPECTOR.client_id}", client_secret = "${INTROSPECTOR.client_secret}" }

# acme's engineers may use the echo agent, as an agent and as a tool
[[auth.rules]]
subjects = ["acme/*"]
claims = { groups = ["eng"] }
agents = ["echo"]
tools = ["switchboard_agent_echo"]

# the tests' key reaches everything
[[auth.rules]]
keys = ["tester"]
`;
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(config) })));
  });

  afterAll(async () => {
    await app?.close();
    await provider?.stop();
  });

  const send = (token: string) => sendWithToken(url, token);
  const refusal = async (token: string) => {
    const response = await send(token);
    return { status: response.status, body: (await response.json()) as { error?: string; message?: string } };
  };
  const listedTools = async (token: string) => {
    const { client: mcp } = await connectV1(url, { key: token });
    try {
      return (await mcp.listTools()).tools.map(({ name }) => name);
    } finally {
      await mcp.close();
    }
  };

  it('lets a token whose principal and claims match a rule reach what it grants, over A2A and /mcp', async () => {
    const token = await provider.token(ALICE, RESOURCE);
    const sent = await send(token);
    expect(sent.status).toBe(200);
    // The task names its owner: the tenant-qualified principal, never the token.
    const { result } = (await sent.json()) as { result: { task: { metadata: Record<string, unknown> } } };
    expect(result.task.metadata).toEqual({ 'switchboard/owner': `acme/alice@${host}` });
    expect(await listedTools(token)).toEqual(['switchboard_agent_echo']);
    const { client: mcp } = await connectV1(url, { key: token });
    try {
      expect(
        textOf(await mcp.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'through a rule' } })),
      ).toContain('through a rule');
    } finally {
      await mcp.close();
    }
  });

  it('refuses a token that matches no rule: a claim short (another group), or another tenant', async () => {
    for (const who of [BOB, CAROL]) {
      expect(await refusal(await provider.token(who, RESOURCE))).toEqual({
        status: 403,
        body: expect.objectContaining({
          error: 'agent_not_allowed',
          message: expect.stringContaining(`may not reach agent "echo"`),
        }),
      });
    }
    expect((await refusal(await provider.token(CAROL, RESOURCE))).body.message).toContain(`"globex/carol@${host}"`);
    expect(await listedTools(await provider.token(BOB, RESOURCE))).toEqual([]);
  });

  it('refuses a token without the tenant claim the issuer is configured with', async () => {
    expect((await send(await provider.token(DROPOUT, RESOURCE))).status).toBe(401);
  });

  it('matches keys by name: the key a rule names reaches everything', async () => {
    expect((await fetch(`${url}/a2a/agents/echo/agent-card.json`, { headers: bearer(TEST_API_KEY) })).status).toBe(200);
    expect(await listedTools(TEST_API_KEY)).toEqual(
      expect.arrayContaining(['switchboard_agent_echo', 'subagent_start']),
    );
  });

  describe('opaque tokens, by introspection', () => {
    it('serves an active one as its subject, with its claims under the rules', async () => {
      const token = await provider.token(ALICE, OPAQUE_RESOURCE);
      expect(token.split('.')).toHaveLength(1);
      expect((await send(token)).status).toBe(200);
      expect((await refusal(await provider.token(BOB, OPAQUE_RESOURCE))).status).toBe(403);
    });

    it('refuses one no issuer calls active, and one issued for another resource', async () => {
      expect((await send('an-opaque-token-nobody-issued')).status).toBe(401);
      expect((await send(await provider.token(ALICE, 'http://elsewhere.test/opaque'))).status).toBe(401);
    });
  });
});
