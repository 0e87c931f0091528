import { ConfigError } from '../config/config-error';
import { configSchema } from '../config/config.schema';
import { assertSafeToListen, isLoopbackHost } from './listen-policy';

function config(host: string, auth: { api_keys?: string[]; allow_open?: boolean } = {}) {
  return configSchema.parse({ server: { host }, auth });
}

describe('listen policy', () => {
  it.each([
    '127.0.0.1',
    '127.0.0.53',
    '127.255.255.254',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    'localhost',
    'LocalHost',
    'ip6-localhost',
  ])('recognizes %s as loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '0.0.0.0',
    '::',
    '[::]',
    '10.0.0.5',
    '128.0.0.1',
    '::2',
    'example.com',
    'localhost.example.com',
    '127.0.0.1.nip.io',
    '',
  ])('does not take %p for loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', 'switchboard.internal'])('refuses to listen on %s without keys', (host) => {
    expect(() => assertSafeToListen(config(host))).toThrow(ConfigError);
    expect(() => assertSafeToListen(config(host))).toThrow(/SWITCHBOARD_API_KEYS/);
  });

  it.each(['127.0.0.1', '127.1.2.3', '::1', 'localhost'])('allows loopback %s without keys', (host) => {
    expect(() => assertSafeToListen(config(host))).not.toThrow();
  });

  it('allows any address once keys are configured', () => {
    expect(() => assertSafeToListen(config('0.0.0.0', { api_keys: ['key-0123456789abcdef'] }))).not.toThrow();
  });

  it('allows any address without keys when allow_open is set on purpose', () => {
    expect(() => assertSafeToListen(config('0.0.0.0', { allow_open: true }))).not.toThrow();
    expect(() => assertSafeToListen(config('::', { allow_open: true }))).not.toThrow();
  });
});
