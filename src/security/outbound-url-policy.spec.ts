import { lookup } from 'node:dns/promises';
import { OutboundUrlBlockedError, OutboundUrlPolicy } from './outbound-url-policy';

jest.mock('node:dns/promises', () => ({ lookup: jest.fn(jest.requireActual('node:dns/promises').lookup) }));

const resolvesTo = (...addresses: string[]) =>
  jest
    .mocked(lookup)
    .mockResolvedValueOnce(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })) as never);

const policy = (...allowHosts: string[]) => new OutboundUrlPolicy({ allowHosts });

async function blockReason(url: string, allowHosts: string[] = []): Promise<string> {
  const error = await policy(...allowHosts)
    .check(url)
    .then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
  expect(error).toBeInstanceOf(OutboundUrlBlockedError);
  return (error as OutboundUrlBlockedError).reason;
}

describe('OutboundUrlPolicy', () => {
  it('names the address, its range and the allowlist key in the error', async () => {
    await expect(policy().check('http://10.0.0.5/hook')).rejects.toThrow(
      'outbound URL http://10.0.0.5/hook blocked: 10.0.0.5 is a private address (allow it with outbound.allow_hosts)',
    );
  });

  it.each([
    ['http://10.0.0.5/', 'a private'],
    ['http://172.16.3.4/', 'a private'],
    ['http://192.168.1.1/', 'a private'],
    ['http://127.0.0.1/', 'a loopback'],
    ['http://127.9.9.9/', 'a loopback'],
    ['http://[::1]/', 'a loopback'],
    ['http://169.254.10.10/', 'a link-local'],
    ['http://[fe80::1]/', 'a link-local'],
    ['http://[fc00::1]/', 'a unique-local'],
    ['http://[fd12:3456::1]/', 'a unique-local'],
    ['http://100.64.0.1/', 'a carrier-grade NAT (CGNAT)'],
    ['http://224.0.0.1/', 'a multicast'],
    ['http://[ff02::1]/', 'a multicast'],
    ['http://0.0.0.0/', 'an unspecified'],
    ['http://[::]/', 'an unspecified'],
    ['http://255.255.255.255/', 'a broadcast'],
    ['http://240.0.0.1/', 'a reserved'],
    ['http://192.0.2.10/', 'a reserved'],
    ['http://[2001:db8::1]/', 'a reserved'],
    ['http://[::a00:5]/', 'a reserved'],
    ['http://[64:ff9b::a00:5]/', 'a special-purpose (rfc6052)'],
    ['http://[2002:a00:5::1]/', 'a special-purpose (6to4)'],
  ])('blocks %s as %s address', async (url, range) => {
    expect(await blockReason(url)).toMatch(`is ${range} address (allow it with outbound.allow_hosts)`);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.170.2/v2/credentials',
    'http://100.100.100.200/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://168.63.129.16/machine',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://METADATA.google.internal./computeMetadata/v1/',
    'http://metadata.goog/',
  ])('blocks the cloud metadata endpoint %s even when allowlisted', async (url) => {
    const everything = [
      '0.0.0.0/0',
      '::/0',
      '169.254.169.254',
      'metadata.google.internal',
      'metadata.goog',
      '168.63.129.16',
    ];
    expect(await blockReason(url, everything)).toMatch('is a cloud metadata endpoint (blocked even when allowlisted)');
  });

  it('blocks a host that resolves to a metadata address even when the host is allowlisted', async () => {
    resolvesTo('169.254.169.254');
    expect(await blockReason('http://hooks.internal/', ['hooks.internal'])).toMatch('cloud metadata endpoint');
  });

  it.each([
    'http://93.184.216.34/',
    'https://93.184.216.34:8443/path?q=1',
    'https://[2606:2800:220:1:248:1893:25c8:1946]/',
  ])('allows the public address %s and returns the parsed URL', async (url) => {
    await expect(policy().check(url)).resolves.toEqual(new URL(url));
  });

  it('allows a public hostname and blocks one with any private address among its records', async () => {
    resolvesTo('93.184.216.34');
    await expect(policy().check('https://example.com/hook')).resolves.toBeInstanceOf(URL);
    resolvesTo('93.184.216.34', '10.0.0.5');
    expect(await blockReason('https://example.com/hook')).toMatch('10.0.0.5 is a private address');
  });

  it('blocks localhost, which resolves to loopback', async () => {
    expect(await blockReason('http://localhost:8080/')).toMatch('is a loopback address');
  });

  it.each([
    'ftp://93.184.216.34/',
    'file:///etc/passwd',
    'gopher://93.184.216.34/',
    'data:text/plain,hi',
    'ws://93.184.216.34/',
  ])('refuses the scheme of %s', async (url) => {
    expect(await blockReason(url)).toMatch(/^scheme [a-z]+: is not allowed \(only http: and https:\)$/);
  });

  it('refuses URLs with credentials and keeps them, the query and the fragment out of the message', async () => {
    const error = await policy()
      .check('https://user:s3cret@93.184.216.34/hook?token=abc#frag')
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OutboundUrlBlockedError);
    expect((error as Error).message).toBe(
      'outbound URL https://93.184.216.34/hook blocked: URLs with credentials are not allowed',
    );
    expect(await blockReason('http://user@93.184.216.34/')).toBe('URLs with credentials are not allowed');
  });

  it.each([
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1 (127.0.0.1) is a loopback'],
    ['http://[::ffff:10.0.0.5]/', '::ffff:a00:5 (10.0.0.5) is a private'],
    ['http://[::ffff:a9fe:101]/', '::ffff:a9fe:101 (169.254.1.1) is a link-local'],
  ])('sees through the IPv4-mapped IPv6 address %s', async (url, description) => {
    expect(await blockReason(url)).toBe(`${description} address (allow it with outbound.allow_hosts)`);
  });

  it.each(['http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://127.1/', 'http://0x7f.0.0.1/'])(
    'blocks the numeric IPv4 form %s as loopback',
    async (url) => {
      expect(await blockReason(url)).toBe('127.0.0.1 is a loopback address (allow it with outbound.allow_hosts)');
    },
  );

  describe('allowlist', () => {
    it('allows a hostname whatever it resolves to, case-insensitively and with a trailing dot', async () => {
      resolvesTo('10.0.0.5');
      await expect(policy('hooks.internal').check('http://HOOKS.internal./hook')).resolves.toBeInstanceOf(URL);
      expect(policy('Hooks.Internal.').blockedReason('10.0.0.5', 'hooks.internal', 443)).toBeUndefined();
      expect(policy('hooks.internal').blockedReason('10.0.0.5', 'other.internal', 443)).toMatch('private');
    });

    it('allows localhost only when named', async () => {
      await expect(policy('localhost').check('http://localhost:8080/')).resolves.toBeInstanceOf(URL);
    });

    it('allows hostname:port on that port only', () => {
      const allowed = policy('hooks.internal:8443');
      expect(allowed.blockedReason('10.0.0.5', 'hooks.internal', 8443)).toBeUndefined();
      expect(allowed.blockedReason('10.0.0.5', 'hooks.internal', 443)).toMatch('private');
    });

    it('applies the default port of the scheme to hostname:port entries', async () => {
      resolvesTo('10.0.0.5');
      await expect(policy('hooks.internal:443').check('https://hooks.internal/')).resolves.toBeInstanceOf(URL);
      resolvesTo('10.0.0.5');
      expect(await blockReason('http://hooks.internal/', ['hooks.internal:443'])).toMatch('private');
    });

    it('allows an IP literal, with or without a port', async () => {
      await expect(policy('10.0.0.5').check('http://10.0.0.5/')).resolves.toBeInstanceOf(URL);
      expect(await blockReason('http://10.0.0.6/', ['10.0.0.5'])).toMatch('private');
      await expect(policy('10.0.0.5:8080').check('http://10.0.0.5:8080/')).resolves.toBeInstanceOf(URL);
      expect(await blockReason('http://10.0.0.5:8081/', ['10.0.0.5:8080'])).toMatch('private');
      await expect(policy('::1').check('http://[::1]/')).resolves.toBeInstanceOf(URL);
      await expect(policy('[::1]:8080').check('http://[::1]:8080/')).resolves.toBeInstanceOf(URL);
    });

    it('allows addresses inside a CIDR, including an IPv4-mapped form of them', async () => {
      const allowed = policy('10.0.0.0/8', '::1/128', 'fd00::/8');
      for (const url of ['http://10.1.2.3/', 'http://[::ffff:10.1.2.3]/', 'http://[::1]/', 'http://[fd12::1]/']) {
        await expect(allowed.check(url)).resolves.toBeInstanceOf(URL);
      }
      expect(await blockReason('http://192.168.1.1/', ['10.0.0.0/8'])).toMatch('private');
      expect(await blockReason('http://127.0.0.1/', ['::1/128'])).toMatch('loopback');
    });

    it('allows a hostname that resolves inside an allowlisted CIDR', async () => {
      resolvesTo('10.9.8.7');
      await expect(policy('10.0.0.0/8').check('http://hooks.internal/')).resolves.toBeInstanceOf(URL);
    });
  });

  describe('blockedReasonBeforeLookup (what a URL says itself)', () => {
    const before = (url: string, ...allowHosts: string[]) =>
      policy(...allowHosts).blockedReasonBeforeLookup(new URL(url));

    it('decides schemes, credentials, metadata names, IP addresses and localhost names without a lookup', () => {
      jest.mocked(lookup).mockClear();
      expect(before('ftp://hooks.example.com/')).toMatch('scheme ftp: is not allowed');
      expect(before('https://u:p@hooks.example.com/')).toBe('URLs with credentials are not allowed');
      expect(before('http://metadata.google.internal/')).toMatch('cloud metadata endpoint');
      expect(before('http://10.0.0.5/')).toMatch('10.0.0.5 is a private address');
      expect(before('http://localhost:8080/')).toMatch('127.0.0.1 is a loopback address');
      expect(before('http://api.LOCALHOST./')).toMatch('127.0.0.1 is a loopback address');
      expect(lookup).not.toHaveBeenCalled();
    });

    it('leaves other names to the lookup, and follows the allowlist', () => {
      expect(before('https://hooks.example.com/')).toBeUndefined();
      expect(before('http://localhost:8080/', 'localhost')).toBeUndefined();
      expect(before('http://127.0.0.1:8080/', '127.0.0.1')).toBeUndefined();
    });
  });
});
