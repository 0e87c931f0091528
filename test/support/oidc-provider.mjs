/**
 * A real OpenID provider for the identity tests: `oidc-provider` (a certified implementation),
 * issuing signed JWT access tokens for a resource (RFC 8707) by client credentials. Run by
 * oidc-provider-process.ts as `node oidc-provider.mjs '<settings as JSON>'`; prints
 * `{"issuer": ...}` once it listens. ESM, as the package is, so it runs outside Jest's module system.
 */
import Provider from 'oidc-provider';

/** `shortLived`: tokens for resources ending with it live one second (for the expiry tests). */
const { port, clients, scopes, shortLived } = JSON.parse(process.argv[2] ?? '{}');
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients,
  scopes: ['openid', ...scopes],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource) => ({
        scope: scopes.join(' '),
        audience: resource,
        accessTokenFormat: 'jwt',
        accessTokenTTL: shortLived && resource.endsWith(shortLived) ? 1 : 600,
      }),
    },
  },
});
provider.listen(port, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ issuer })}\n`));
