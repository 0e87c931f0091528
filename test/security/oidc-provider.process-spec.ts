/**
 * The test OpenID provider itself (test/support/oidc-provider-process.ts), before other tests lean
 * on it: the authorization code flow with PKCE and resource indicators, opaque tokens and their
 * introspection, token exchange, and extra claims.
 */
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { ACCESS_TOKEN_TYPE, type OidcClient, OidcProvider, TOKEN_EXCHANGE } from '../support/oidc-provider-process';

const RESOURCE = 'http://switchboard.test/mcp';
const DOWNSTREAM = 'http://downstream.test/mcp';
const OPAQUE = 'http://switchboard.test/opaque';
const REDIRECT = 'http://127.0.0.1:1/callback';
const PUBLIC_APP: OidcClient = { client_id: 'public-app', scope: 'a2a', redirect_uris: [REDIRECT] };
const WEB_APP: OidcClient = {
  client_id: 'web-app',
  client_secret: 'web-app-secret-0123456789',
  scope: 'a2a',
  redirect_uris: [REDIRECT],
  loginAs: 'carol',
};
const SERVICE: OidcClient = { client_id: 'service', client_secret: 'service-secret-0123456789', scope: 'a2a' };
const CLAIMS = { alice: { groups: ['eng'], tid: 'acme' }, service: { tid: 'ops' } };

/** The authorization code flow as a client runs it: PKCE, `resource` at both steps; the token response. */
async function codeFlow(provider: OidcProvider, client: OidcClient, resource: string) {
  const verifier = randomBytes(32).toString('base64url');
  const authorization = new URL(`${provider.issuer}/auth`);
  authorization.search = new URLSearchParams({
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: REDIRECT,
    scope: 'a2a',
    state: 'the-state',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource,
  }).toString();
  const callback = await provider.authorize(authorization);
  expect({ origin: callback.origin + callback.pathname, state: callback.searchParams.get('state') }).toEqual({
    origin: REDIRECT,
    state: 'the-state',
  });
  const code = callback.searchParams.get('code')!;
  return provider.requestToken(client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource,
  });
}

describe('the test OpenID provider', () => {
  let provider: OidcProvider;

  beforeAll(async () => {
    provider = await OidcProvider.start({
      clients: [PUBLIC_APP, WEB_APP, SERVICE],
      scopes: ['a2a'],
      opaque: '/opaque',
      loginAs: 'alice',
      claims: CLAIMS,
    });
  });

  afterAll(() => provider?.stop());

  it('issues a JWT for the resource by the authorization code flow with PKCE, as the logged-in subject, with her claims', async () => {
    const { status, body } = await codeFlow(provider, PUBLIC_APP, RESOURCE);
    expect({ status, token_type: body.token_type, refresh: typeof body.refresh_token }).toEqual({
      status: 200,
      token_type: 'Bearer',
      refresh: 'string',
    });
    expect(decodeJwt(body.access_token)).toMatchObject({
      iss: provider.issuer,
      aud: RESOURCE,
      sub: 'alice',
      client_id: 'public-app',
      scope: 'a2a',
      groups: ['eng'],
      tid: 'acme',
    });
    expect(await provider.tokenRequests('public-app')).toEqual([
      { client_id: 'public-app', grant_type: 'authorization_code', resource: RESOURCE, status: 200 },
    ]);
  });

  it("logs a confidential client's user in as the client's own subject, and refreshes for the resource", async () => {
    const { body } = await codeFlow(provider, WEB_APP, RESOURCE);
    expect(decodeJwt(body.access_token)).toMatchObject({ aud: RESOURCE, sub: 'carol' });
    const refreshed = await provider.requestToken(WEB_APP, {
      grant_type: 'refresh_token',
      refresh_token: body.refresh_token,
      resource: RESOURCE,
    });
    expect(decodeJwt(refreshed.body.access_token)).toMatchObject({ aud: RESOURCE, sub: 'carol' });
    expect((await provider.tokenRequests('web-app')).map(({ grant_type }) => grant_type)).toEqual([
      'authorization_code',
      'refresh_token',
    ]);
  });

  it("gives a client's own tokens the claims of its id", async () => {
    expect(decodeJwt(await provider.token(SERVICE, RESOURCE))).toMatchObject({
      sub: 'service',
      aud: RESOURCE,
      tid: 'ops',
    });
  });

  it("issues opaque tokens for the opaque resource, which a resource server's introspection knows and a made-up one is not", async () => {
    const { access_token: token } = (await codeFlow(provider, PUBLIC_APP, OPAQUE)).body;
    expect(token.split('.')).toHaveLength(1);
    expect(await provider.introspect(SERVICE, token)).toMatchObject({
      active: true,
      aud: OPAQUE,
      sub: 'alice',
      client_id: 'public-app',
      scope: 'a2a',
      tid: 'acme',
      iss: provider.issuer,
    });
    // A client's own token has no subject at introspection, as oidc-provider has it: only its client_id.
    expect(await provider.introspect(SERVICE, await provider.token(SERVICE, OPAQUE))).toMatchObject({
      active: true,
      client_id: 'service',
      tid: 'ops',
    });
    expect(await provider.introspect(SERVICE, 'made-up-token')).toEqual({ active: false });
  });

  describe('token exchange (RFC 8693)', () => {
    const exchange = (on: OidcProvider, subjectToken: string, target: Record<string, string>) =>
      on.requestToken(SERVICE, {
        grant_type: TOKEN_EXCHANGE,
        subject_token: subjectToken,
        subject_token_type: ACCESS_TOKEN_TYPE,
        ...target,
      });

    it("trades a user's token for one to another resource, for the same subject, acted by the client", async () => {
      const { body: user } = await codeFlow(provider, PUBLIC_APP, RESOURCE);
      const { status, body } = await exchange(provider, user.access_token, { resource: DOWNSTREAM, scope: 'a2a' });
      expect({ status, ...body, access_token: undefined }).toEqual({
        status: 200,
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: 'Bearer',
        expires_in: 600,
        scope: 'a2a',
      });
      expect(decodeJwt(body.access_token)).toMatchObject({
        iss: provider.issuer,
        aud: DOWNSTREAM,
        sub: 'alice',
        act: { sub: 'service' },
        scope: 'a2a',
        tid: 'acme',
      });
      // `audience` serves as the resource when none is given.
      const byAudience = await exchange(provider, user.access_token, { audience: DOWNSTREAM });
      expect(decodeJwt(byAudience.body.access_token)).toMatchObject({ aud: DOWNSTREAM, sub: 'alice' });
    });

    it('trusts the subject tokens of the issuer whose keys it is given', async () => {
      const downstream = await OidcProvider.start({ clients: [SERVICE], scopes: ['a2a'], trustJwks: provider.jwksUri });
      try {
        const { body: user } = await codeFlow(provider, PUBLIC_APP, RESOURCE);
        const { body } = await exchange(downstream, user.access_token, { resource: DOWNSTREAM });
        expect(decodeJwt(body.access_token)).toMatchObject({
          iss: downstream.issuer,
          aud: DOWNSTREAM,
          sub: 'alice',
          act: { sub: 'service' },
        });
        // Its own tokens are not signed by those keys.
        expect(
          (await exchange(downstream, await downstream.token(SERVICE, RESOURCE), { resource: DOWNSTREAM })).body.error,
        ).toBe('invalid_grant');
      } finally {
        await downstream.stop();
      }
    });

    it('refuses a subject token it cannot verify (invalid_grant) and a request without a subject token type (invalid_request)', async () => {
      const forged = `${(await provider.token(SERVICE, RESOURCE)).slice(0, -4)}AAAA`;
      expect(await exchange(provider, forged, { resource: DOWNSTREAM })).toMatchObject({
        status: 400,
        body: { error: 'invalid_grant' },
      });
      const untyped = await provider.requestToken(SERVICE, {
        grant_type: TOKEN_EXCHANGE,
        subject_token: await provider.token(SERVICE, RESOURCE),
        resource: DOWNSTREAM,
      });
      expect(untyped).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    });
  });
});
