import {
  keepRedactedSecrets,
  openSecrets,
  REDACTED,
  redactSecrets,
  sealSecrets,
} from '../../src/catalog/catalog-secrets';
import { SecretCipher } from '../../src/catalog/secret-cipher';

const server = {
  name: 'docs',
  transport: {
    type: 'http',
    url: 'https://mcp.example.com/mcp',
    headers: { authorization: 'Bearer s3cret-value', 'x-tenant': '${TENANT}' },
    auth: {
      type: 'oauth_client_credentials',
      client_id: 'sb',
      client_secret: 'client-s3cret',
      issuer: 'https://id.example',
    },
  },
};

describe('catalog secrets', () => {
  const cipher = new SecretCipher('catalog-key-for-tests-0123456789abcdef');

  it('seals secrets given by value and leaves references and other keys as they are', () => {
    const problems: string[] = [];
    const sealed = sealSecrets('mcp_servers', server, cipher, problems);
    expect(problems).toEqual([]);
    const transport = sealed.transport as typeof server.transport;
    expect(transport.headers.authorization).toMatch(/^enc:v1:/);
    expect(transport.auth.client_secret).toMatch(/^enc:v1:/);
    expect(transport.headers['x-tenant']).toBe('${TENANT}');
    expect(transport.auth.client_id).toBe('sb');
    expect(JSON.stringify(sealed)).not.toContain('s3cret');
    expect(openSecrets('mcp_servers', sealed, cipher, 'mcp_servers.docs', problems)).toEqual(server);
    expect(problems).toEqual([]);
  });

  it('names the secret that cannot be stored or opened, and why', () => {
    const problems: string[] = [];
    sealSecrets('mcp_servers', server, undefined, problems);
    expect(problems).toEqual([
      expect.stringMatching(
        /^transport\.headers\.authorization: a secret given by value needs SWITCHBOARD_CATALOG_KEY/,
      ),
      expect.stringMatching(/^transport\.auth\.client_secret: /),
    ]);
    const sealed = sealSecrets('mcp_servers', server, cipher, []);
    const opened: string[] = [];
    openSecrets(
      'mcp_servers',
      sealed,
      new SecretCipher('another-key-0123456789abcdef-0123456'),
      'mcp_servers.docs',
      opened,
    );
    expect(opened[0]).toMatch(/^mcp_servers\.docs\.transport\.headers\.authorization: cannot be decrypted/);
    openSecrets('mcp_servers', sealed, undefined, 'mcp_servers.docs', opened);
    expect(opened[2]).toMatch(/is stored encrypted, and SWITCHBOARD_CATALOG_KEY .* is not set/);
  });

  it('redacts what it shows, and keeps a stored secret sent back redacted', () => {
    const shown = redactSecrets('mcp_servers', server);
    expect(shown.transport).toMatchObject({
      headers: { authorization: REDACTED, 'x-tenant': '${TENANT}' },
      auth: { client_secret: REDACTED },
    });
    const sealed = sealSecrets('mcp_servers', server, cipher, []);
    const kept = keepRedactedSecrets('mcp_servers', { ...shown, timeout_secs: 5 }, sealed);
    expect(kept.transport).toEqual(sealed.transport);
  });

  it('seals each value with a fresh nonce', () => {
    expect(cipher.seal('same')).not.toBe(cipher.seal('same'));
    expect(cipher.open(cipher.seal('same'))).toBe('same');
  });
});
