/**
 * A development OpenID provider for docker-compose.yml's `examples` profile: `oidc-provider` (a
 * certified implementation) issuing JWT access tokens (RFC 9068) by client credentials to one
 * client, for one resource (RFC 8707), so that docker/switchboard.toml's `[auth.oauth]` has an
 * issuer to trust. For trying tokens out, not for production: its signing keys are made at each
 * start (tokens issued before a restart stop verifying) and nothing is kept.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const issuer = env('OIDC_ISSUER');
const resource = env('OIDC_RESOURCE');
const scope = env('OIDC_SCOPES');
const port = Number(env('PORT'));
// Not oidc-provider's built-in development keys: those are published with it, so anyone could sign tokens with them.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: env('OIDC_CLIENT_ID'),
      client_secret: env('OIDC_CLIENT_SECRET'),
      grant_types: ['client_credentials'],
      redirect_uris: [],
      response_types: [],
      scope,
    },
  ],
  jwks: { keys: [signingKey] },
  scopes: ['openid', ...scope.split(' ')],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, requested) => {
        if (requested !== resource) throw new errors.InvalidTarget(`this provider issues tokens for ${resource} only`);
        return { scope, audience: resource, accessTokenFormat: 'jwt', accessTokenTTL: 600 };
      },
    },
  },
});
// PID 1 in its container: without a handler, SIGTERM would wait for the stop timeout.
process.once('SIGTERM', () => process.exit(0));
provider.listen(port, () => console.log(`issuer ${issuer} listening on ${port}, tokens for ${resource}`));
