/**
 * A verified access token's verdict is kept until the token expires, but not past a change of the
 * access rules: the scope a token's caller gets is the current rules' word.
 */
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { fileCatalog } from '../../src/config/file-catalog';
import { LiveCatalog } from '../../src/config/live-catalog';
import { AccessPolicy } from '../../src/security/access-policy';
import { TokenVerifier } from '../../src/security/token-verifier';
import { writeConfigFile } from '../support/config-file';
import { testConfig } from '../support/test-app';

const ISSUER = 'https://idp.example.test';
const RESOURCE = 'https://switchboard.example.test/mcp';
const JWKS_URI = `${ISSUER}/jwks`;

describe('TokenVerifier and the live catalog’s rules', () => {
  it('gives a token it verified before a rule changed the scope of the rules in force', async () => {
    const config = testConfig({
      SWITCHBOARD_CONFIG: writeConfigFile(
        `[auth.oauth]\nresource = "${RESOURCE}"\n[[auth.oauth.issuers]]\nissuer = "${ISSUER}"\njwks_uri = "${JWKS_URI}"\n`,
      ),
    });
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
    let keyFetches = 0;
    const fetchImpl = (async (url: string | URL) => {
      expect(String(url)).toBe(JWKS_URI);
      keyFetches++;
      return Response.json({ keys: [jwk] });
    }) as typeof fetch;
    const catalog = new LiveCatalog(fileCatalog(config));
    const verifier = new TokenVerifier(
      config.auth.oauth!,
      '/a2a',
      new AccessPolicy(catalog, 'all'),
      fetchImpl,
      catalog,
    );
    const token = await new SignJWT({ sub: 'alice', aud: RESOURCE, iss: ISSUER })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const scope = async () => {
      const verdict = await verifier.verify(token);
      if (verdict.kind !== 'valid') throw new Error(`token refused: ${JSON.stringify(verdict)}`);
      return verdict.principal.scope;
    };

    expect((await scope()).allowsAgent('coder')).toBe(true);
    catalog.replace(
      { ...catalog.current, rules: [{ name: 'alice-reviews', subjects: ['alice@*'], agents: ['reviewer'] }] },
      (error) => {
        throw error;
      },
    );
    const narrowed = await scope();
    expect(narrowed.allowsAgent('coder')).toBe(false);
    expect(narrowed.allowsAgent('reviewer')).toBe(true);
    expect(keyFetches).toBe(1);
  });
});
