/**
 * Switchboard as an OAuth 2.1 protected resource, against a real OpenID provider (oidc-provider)
 * issuing real signed JWTs by client credentials: discovery from a 401 (RFC 9728), tokens as
 * principals beside API keys, required scopes, and the rejection of tokens that must not pass.
 */
import { GetTaskRequest, TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { artifactText, asTask, collect, sdkClient, userMessage } from '../support/sdk-client';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { forgedToken, unsignedToken, withBadSignature } from '../support/forged-tokens';
import { oauthConfigToml } from '../support/oauth-config';
import { type OidcClient, OidcProvider } from '../support/oidc-provider-process';
import { sendWithToken } from '../support/send-with-token';
import { freePort } from '../support/free-port';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import type { Json } from '../support/json';

const RESOURCE = 'http://switchboard.test/mcp';
const SHORT_LIVED = 'http://switchboard.test/short';
const METADATA_URL = 'http://switchboard.test/.well-known/oauth-protected-resource/mcp';
const client = (client_id: string, scope: string): OidcClient => ({
  client_id,
  client_secret: `${client_id}-secret-0123456789`,
  scope,
});
const ALICE = client('alice', 'a2a');
const BOB = client('bob', 'a2a');
const NO_SCOPE = client('no-scope', 'other');

describe('OAuth 2.1 access tokens', () => {
  let provider: OidcProvider;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    provider = await OidcProvider.start({
      clients: [ALICE, BOB, NO_SCOPE],
      scopes: ['a2a', 'other'],
      shortLived: '/short',
    });
    const config = oauthConfigToml({
      resource: RESOURCE,
      issuer: provider.issuer,
      audiences: [SHORT_LIVED],
      scopes: ['a2a'],
      clockSkewSecs: 0,
    });
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(config) })));
  });

  afterAll(async () => {
    await app?.close();
    await provider?.stop();
  });

  const send = (token: string) => sendWithToken(url, token);

  it('names its resource metadata in every 401, and serves it publicly', async () => {
    const refused = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer realm="switchboard", resource_metadata="${METADATA_URL}"`,
    );
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const metadata = (await (await fetch(`${url}${path}`)).json()) as Json;
      expect(metadata).toEqual({
        resource: RESOURCE,
        authorization_servers: [provider.issuer],
        scopes_supported: ['a2a'],
        bearer_methods_supported: ['header'],
        resource_name: 'Switchboard',
      });
    }
  });

  it("serves the A2A SDK client with the provider's token: send, stream, get; another subject cannot see the task", async () => {
    const alice = await sdkClient(url, 'echo', 'JSONRPC', await provider.token(ALICE, RESOURCE));
    const task = asTask(await alice.sendMessage(userMessage('with a token')));
    expect({ state: task.status?.state, text: artifactText(task) }).toEqual({
      state: TaskState.TASK_STATE_COMPLETED,
      text: 'with a token',
    });
    const streamed = await collect(alice.sendMessageStream(userMessage('streamed')));
    expect(streamed.at(-1)?.payload?.$case).toBe('statusUpdate');
    expect((await alice.getTask(GetTaskRequest.fromJSON({ id: task.id }))).id).toBe(task.id);

    const bob = await sdkClient(url, 'echo', 'JSONRPC', await provider.token(BOB, RESOURCE));
    await expect(bob.getTask(GetTaskRequest.fromJSON({ id: task.id }))).rejects.toThrow(/not found/i);
    // API keys keep working beside tokens.
    expect((await fetch(`${url}/a2a/agents`, { headers: bearer() })).status).toBe(200);
  });

  it('declares the issuer in every agent card, as OpenID Connect beside the bearer scheme, in both card versions', async () => {
    const card = (await (await fetch(`${url}/a2a/agents/echo/agent-card.json`)).json()) as Json;
    const name = `oidc-${new URL(provider.issuer).host}`;
    const discovery = `${provider.issuer}/.well-known/openid-configuration`;
    expect(card.securitySchemes[name]).toMatchObject({
      openIdConnectSecurityScheme: { openIdConnectUrl: discovery },
      type: 'openIdConnect',
      openIdConnectUrl: discovery,
    });
    expect(card.securityRequirements).toEqual([
      { schemes: { bearer: {} } },
      { schemes: { [name]: { list: ['a2a'] } } },
    ]);
    expect(card.security).toEqual([{ bearer: [] }, { [name]: ['a2a'] }]);
    // The official resolver reads the card as a v1.0 client would.
    const resolved = await new DefaultAgentCardResolver().resolve(`${url}/a2a/agents/echo/`);
    expect(Object.keys(resolved.securitySchemes)).toEqual(['bearer', name]);
  });

  it("reports its issuers' keys on /readyz", async () => {
    const readiness = (await (await fetch(`${url}/readyz`)).json()) as Json;
    expect(readiness.checks.issuers).toEqual({ status: 'up' });
  });

  it('answers 403 insufficient_scope, naming the scope, to a token without it', async () => {
    const response = await send(await provider.token(NO_SCOPE, RESOURCE));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="switchboard", resource_metadata="${METADATA_URL}", error="insufficient_scope", scope="a2a"`,
    );
  });

  describe('refuses with 401 invalid_token', () => {
    const refused = async (token: string) => {
      const response = await send(token);
      return {
        status: response.status,
        challenge: response.headers.get('www-authenticate'),
        echoed: (await response.text()).includes(token),
      };
    };
    const expectRefused = async (token: string) =>
      expect(await refused(token)).toEqual({
        status: 401,
        challenge: `Bearer realm="switchboard", resource_metadata="${METADATA_URL}", error="invalid_token"`,
        echoed: false,
      });
    const aliceClaims = () => ({ sub: 'alice', scope: 'a2a', iss: provider.issuer, aud: RESOURCE });

    it('a token for another resource (audience)', async () => {
      await expectRefused(await provider.token(ALICE, 'http://elsewhere.test/mcp'));
    });

    it('a token of an issuer it does not trust', async () => {
      await expectRefused(await forgedToken({ ...aliceClaims(), iss: 'http://127.0.0.1:1/unknown' }));
    });

    it('a bad signature, and a key id the issuer does not publish', async () => {
      await expectRefused(withBadSignature(await provider.token(ALICE, RESOURCE)));
      await expectRefused(await forgedToken(aliceClaims(), 'unknown-kid'));
    });

    it('an unsigned token (alg: none)', async () => {
      await expectRefused(unsignedToken(aliceClaims()));
    });

    it('an expired token, once it expires', async () => {
      const token = await provider.token(ALICE, SHORT_LIVED);
      expect((await send(token)).status).toBe(200);
      await eventually(
        async () => (await send(token)).status,
        (status) => status === 401,
        5_000,
      );
      await expectRefused(token);
    });
  });
});

describe('an issuer whose keys cannot be had', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    const issuer = `http://127.0.0.1:${await freePort()}`;
    const config = oauthConfigToml({ resource: RESOURCE, issuer });
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(config) })));
  });

  afterAll(() => app?.close());

  it('is reported on /readyz, naming it, without taking the replica out: API keys still serve', async () => {
    const response = await fetch(`${url}/readyz`);
    const readiness = (await response.json()) as Json;
    expect(response.status).toBe(200);
    expect(readiness.checks.issuers).toMatchObject({
      status: 'down',
      error: expect.stringMatching(/^signing keys unavailable from http:\/\/127\.0\.0\.1:\d+: /),
    });
    expect((await fetch(`${url}/a2a/agents`, { headers: bearer() })).status).toBe(200);
  });
});

describe('the rate limit, for access tokens', () => {
  let provider: OidcProvider;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    provider = await OidcProvider.start({ clients: [ALICE, BOB], scopes: ['a2a'] });
    const config = oauthConfigToml({ resource: RESOURCE, issuer: provider.issuer });
    ({ app, url } = await startTestApp(
      testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(config), SWITCHBOARD_RATE_LIMIT: '2' }),
    ));
  });

  afterAll(async () => {
    await app?.close();
    await provider?.stop();
  });

  it("counts per subject, as per key: one subject's calls leave another's budget alone", async () => {
    const list = async (token: string) =>
      (await fetch(`${url}/a2a/agents`, { headers: { authorization: `Bearer ${token}` } })).status;
    const [alice, bob] = await Promise.all([provider.token(ALICE, RESOURCE), provider.token(BOB, RESOURCE)]);
    expect([await list(alice), await list(alice), await list(alice)]).toEqual([200, 200, 429]);
    expect(await list(bob)).toBe(200);
  });
});
