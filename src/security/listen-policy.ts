import { isIP } from 'node:net';
import type { SwitchboardConfig } from '../config/config.schema';
import { ConfigError } from '../config/config-error';

const LOOPBACK_NAMES = new Set(['localhost', 'ip6-localhost', 'ip6-loopback']);

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(bare)) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare.startsWith('::ffff:127.');
  return false;
}

/** Without API keys the service is open to anyone who can reach it: allow that on loopback only, unless told otherwise. */
export function assertSafeToListen(config: SwitchboardConfig): void {
  const { host } = config.server;
  if (config.auth.api_keys.length > 0 || config.auth.oauth || config.auth.allow_open || isLoopbackHost(host)) return;
  throw new ConfigError('startup check', [
    `server.host: refusing to listen on ${host} without authentication. ` +
      'Set auth.api_keys (SWITCHBOARD_API_KEYS), listen on 127.0.0.1, or set auth.allow_open = true (SWITCHBOARD_ALLOW_OPEN=1) to run open on purpose.',
  ]);
}
