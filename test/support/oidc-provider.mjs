/**
 * A real OpenID provider for the identity tests: `oidc-provider` (a certified implementation),
 * issuing access tokens for a resource (RFC 8707) by client credentials, by the authorization code
 * flow with PKCE (its login and consent completed at once, as a configured subject), and by token
 * exchange (RFC 8693); it introspects opaque tokens (RFC 7662). Run by oidc-provider-process.ts as
 * `node oidc-provider.mjs '<settings as JSON>'`; prints `{"issuer": ...}` once it listens. ESM, as
 * the package is, so it runs outside Jest's module system.
 */
import { createServer } from 'node:http';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import Provider, { errors } from 'oidc-provider';

/**
 * `shortLived`: tokens for resources ending with it live one second (for the expiry tests).
 * `opaque`: tokens for resources ending with it are opaque, to be introspected.
 * `loginAs`: the subject a user logs in as, unless the client names its own (`loginAs` on a client).
 * `claims`: extra access token claims by subject (a client's own tokens have its id as subject).
 * `trustJwks`: the keys that sign the subject tokens it exchanges; its own keys otherwise.
 */
const {
  port,
  clients,
  scopes,
  shortLived,
  opaque,
  loginAs,
  claims = {},
  trustJwks,
} = JSON.parse(process.argv[2] ?? '{}');
const issuer = `http://127.0.0.1:${port}`;
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';
const SUBJECT_TOKEN_TYPES = new Set([ACCESS_TOKEN, 'urn:ietf:params:oauth:token-type:jwt']);
const subjectOfClient = new Map(clients.map((client) => [client.client_id, client.loginAs ?? loginAs]));

const resourceServerInfo = (resource) => ({
  scope: scopes.join(' '),
  audience: resource,
  accessTokenFormat: opaque && resource.endsWith(opaque) ? 'opaque' : 'jwt',
  accessTokenTTL: shortLived && resource.endsWith(shortLived) ? 1 : 600,
});

// Keys of its own: without them every instance would sign with the package's development keys.
const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), kid: `key-${port}`, alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  clients: clients.map(({ loginAs: _subject, ...metadata }) => metadata),
  scopes: ['openid', 'offline_access', ...scopes],
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  // Every client allowed to refresh gets a refresh token, without asking for offline_access.
  issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
  extraTokenClaims: (_ctx, token) => ({
    ...claims[token.accountId ?? token.clientId],
    ...(token.gty === TOKEN_EXCHANGE && { act: { sub: token.clientId } }),
  }),
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    introspection: { enabled: true },
    resourceIndicators: {
      enabled: true,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource) => resourceServerInfo(resource),
    },
  },
});

/** RFC 8693: a JWT access token from a trusted signer, exchanged for one to `resource` (or `audience`), acting for its subject. */
const trustedKeys = createRemoteJWKSet(new URL(trustJwks ?? `${issuer}/jwks`));
provider.registerGrantType(
  TOKEN_EXCHANGE,
  async (ctx) => {
    const { subject_token: subjectToken, subject_token_type: subjectTokenType, audience, scope } = ctx.oidc.params;
    const resource = ctx.oidc.params.resource ?? audience;
    if (!subjectToken) throw new errors.InvalidRequest('subject_token is required');
    if (!SUBJECT_TOKEN_TYPES.has(subjectTokenType))
      throw new errors.InvalidRequest(`subject_token_type must be ${ACCESS_TOKEN}`);
    if (!resource || !URL.canParse(resource))
      throw new errors.InvalidTarget('an absolute resource (or audience) is required');
    let subject;
    try {
      ({ payload: subject } = await jwtVerify(subjectToken, trustedKeys, { requiredClaims: ['sub'] }));
    } catch (error) {
      throw new errors.InvalidGrant(`subject_token is not valid: ${error.message}`);
    }
    const resourceServer = new provider.ResourceServer(resource, resourceServerInfo(resource));
    const wanted = (scope ?? subject.scope ?? '').split(' ').filter((name) => resourceServer.scopes.has(name));
    const token = new provider.AccessToken({
      accountId: subject.sub,
      client: ctx.oidc.client,
      gty: TOKEN_EXCHANGE,
      scope: wanted.join(' ') || undefined,
      resourceServer,
    });
    ctx.oidc.entity('AccessToken', token);
    ctx.body = {
      access_token: await token.save(),
      issued_token_type: ACCESS_TOKEN,
      token_type: 'Bearer',
      expires_in: token.expiration,
      scope: token.scope,
    };
  },
  ['subject_token', 'subject_token_type', 'resource', 'audience', 'scope'],
);

/** What each client asked of the token endpoint, for tests of when a client refreshes. */
const tokenRequests = [];
provider.use(async (ctx, next) => {
  await next();
  if (ctx.oidc?.route !== 'token') return;
  const { grant_type, resource, audience, scope } = ctx.oidc.params ?? {};
  tokenRequests.push({
    client_id: ctx.oidc.client?.clientId ?? ctx.oidc.params?.client_id,
    grant_type,
    resource,
    audience,
    scope,
    status: ctx.status,
  });
});

/** The user's part, done at once: they log in as the client's subject, and consent to all that was asked. */
async function interact(req, res) {
  const { prompt, params, session, grantId } = await provider.interactionDetails(req, res);
  if (prompt.name === 'login') {
    const accountId = subjectOfClient.get(params.client_id);
    if (!accountId) throw new Error(`no subject to log in as for ${params.client_id}: set loginAs`);
    return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  }
  const grant = grantId
    ? await provider.Grant.find(grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  const { missingOIDCScope, missingOIDCClaims, missingResourceScopes = {} } = prompt.details;
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
  for (const [resource, names] of Object.entries(missingResourceScopes))
    grant.addResourceScope(resource, names.join(' '));
  return provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

const handleProvider = provider.callback();
createServer((req, res) => {
  const { pathname, searchParams } = new URL(req.url, issuer);
  if (pathname.startsWith('/interaction/')) {
    interact(req, res).catch((error) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message);
    });
  } else if (pathname === '/debug/token-requests') {
    const clientId = searchParams.get('client_id');
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify(tokenRequests.filter((request) => request.client_id === clientId)));
  } else {
    handleProvider(req, res);
  }
}).listen(port, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ issuer })}\n`));
