/**
 * An MCP host authorizing as the MCP specification has it, through the official SDK clients: with
 * nothing but /mcp's URL and a client registered at the provider, it follows the 401 to the
 * protected resource metadata (RFC 9728), then the issuer's metadata, runs the authorization code
 * flow with PKCE for this resource (RFC 8707) and calls a tool with the token.
 */
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedErrorV2,
} from '@modelcontextprotocol/client';
import { UnauthorizedError as UnauthorizedErrorV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { decodeJwt } from 'jose';
import { createHttpApp } from '../../src/app.factory';
import { textOf } from '../mcp-server/support/mcp-clients';
import { writeConfigFile } from '../support/config-file';
import { freePort } from '../support/free-port';
import { type OidcClient, OidcProvider } from '../support/oidc-provider-process';
import { PreRegisteredOAuthClient } from '../support/pre-registered-oauth-client';
import { testConfig } from '../support/test-app';

const REDIRECT = 'http://127.0.0.1:1/oauth/callback';
const PUBLIC_HOST: OidcClient = { client_id: 'public-host', scope: 'a2a', redirect_uris: [REDIRECT] };
const CONFIDENTIAL_HOST: OidcClient = {
  client_id: 'confidential-host',
  client_secret: 'confidential-host-secret-0123',
  scope: 'a2a',
  redirect_uris: [REDIRECT],
};
const SERVICE: OidcClient = { client_id: 'service', client_secret: 'service-secret-0123456789', scope: 'a2a' };

describe('MCP hosts authorizing by OAuth 2.1', () => {
  let provider: OidcProvider;
  let app: NestFastifyApplication;
  let mcpUrl: string;

  beforeAll(async () => {
    provider = await OidcProvider.start({
      clients: [PUBLIC_HOST, CONFIDENTIAL_HOST, SERVICE],
      scopes: ['a2a'],
      loginAs: 'alice',
    });
    // The resource is the URL the hosts use, so the port is chosen before the app starts.
    const port = await freePort();
    mcpUrl = `http://127.0.0.1:${port}/mcp`;
    const config = `[outbound]\nallow_hosts = ["127.0.0.1"]\n[auth.oauth]\nresource = "${mcpUrl}"\n[[auth.oauth.issuers]]\nissuer = "${provider.issuer}"\nscopes = ["a2a"]\n`;
    app = await createHttpApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(config) }));
    await app.listen({ host: '127.0.0.1', port });
  });

  afterAll(async () => {
    await app?.close();
    await provider?.stop();
  });

  /** What a host's user does between the SDK's redirect and its `finishAuth`: the callback's parameters. */
  async function userAuthorizes(oauth: PreRegisteredOAuthClient): Promise<URLSearchParams> {
    const authorization = oauth.authorizationUrl!;
    expect(authorization.searchParams.get('resource')).toBe(mcpUrl);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    return (await provider.authorize(authorization)).searchParams;
  }

  /** The token endpoint requests of the host's client; its token for this resource, as the SDK keeps it. */
  async function expectTokenForThisResource(oauth: PreRegisteredOAuthClient, client: OidcClient): Promise<void> {
    expect(await provider.tokenRequests(client.client_id)).toEqual([
      expect.objectContaining({ grant_type: 'authorization_code', resource: mcpUrl, status: 200 }),
    ]);
    expect(decodeJwt(oauth.tokens()!.access_token)).toMatchObject({
      iss: provider.issuer,
      aud: mcpUrl,
      sub: 'alice',
      scope: 'a2a',
    });
  }

  it('the 1.x SDK client (2025 era): from the 401 to a tool call', async () => {
    const oauth = new PreRegisteredOAuthClient(PUBLIC_HOST);
    const refused = new TransportV1(new URL(mcpUrl), { authProvider: oauth });
    await expect(new ClientV1({ name: 'oauth-host-v1', version: '1.0.0' }).connect(refused)).rejects.toBeInstanceOf(
      UnauthorizedErrorV1,
    );
    await refused.finishAuth((await userAuthorizes(oauth)).get('code')!);
    await expectTokenForThisResource(oauth, PUBLIC_HOST);

    const client = new ClientV1({ name: 'oauth-host-v1', version: '1.0.0' });
    await client.connect(new TransportV1(new URL(mcpUrl), { authProvider: oauth }));
    try {
      expect((await client.listTools()).tools.map(({ name }) => name)).toContain('switchboard_agent_echo');
      expect(
        textOf(await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'authorized v1' } })),
      ).toBe('authorized v1');
    } finally {
      await client.close();
    }
  });

  it('the 2.x SDK client (2026-07-28 era), as a confidential client: from the 401 to a tool call', async () => {
    const oauth = new PreRegisteredOAuthClient(CONFIDENTIAL_HOST);
    const connect = (transport: TransportV2) => {
      const client = new ClientV2(
        { name: 'oauth-host-v2', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      return client.connect(transport).then(() => client);
    };
    const refused = new TransportV2(new URL(mcpUrl), { authProvider: oauth });
    await expect(connect(refused)).rejects.toBeInstanceOf(UnauthorizedErrorV2);
    // The whole callback, so the SDK also checks the issuer named in it (RFC 9207).
    await refused.finishAuth(await userAuthorizes(oauth));
    await expectTokenForThisResource(oauth, CONFIDENTIAL_HOST);

    const client = await connect(new TransportV2(new URL(mcpUrl), { authProvider: oauth }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await client.listTools()).tools.map(({ name }) => name)).toContain('switchboard_agent_echo');
      expect(
        textOf(await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'authorized v2' } })),
      ).toBe('authorized v2');
    } finally {
      await client.close();
    }
  });

  it('refuses a token for another resource, naming the metadata, and the host is sent to authorize for this one', async () => {
    const elsewhere = await provider.token(SERVICE, 'http://elsewhere.test/mcp');
    const refused = await fetch(mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${elsewhere}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(
      /resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", error="invalid_token"$/,
    );

    const oauth = new PreRegisteredOAuthClient(PUBLIC_HOST);
    oauth.saveTokens({ access_token: elsewhere, token_type: 'Bearer', issuer: provider.issuer });
    const transport = new TransportV2(new URL(mcpUrl), { authProvider: oauth });
    const client = new ClientV2(
      { name: 'oauth-host-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedErrorV2);
    expect(oauth.authorizationUrl?.searchParams.get('resource')).toBe(mcpUrl);
  });
});
