/**
 * Environment variables that override config-file keys. This table is the only place outside the
 * loader that knows their names (`switchboard mcp`'s own two are in mcp-relay.settings.ts);
 * docs/configuration.md's reference mirrors it.
 */
export interface EnvOverride {
  env: string;
  path: string[];
  parse: (raw: string) => unknown;
  /** The parsed list is added to the list at `path` (the file's, or an earlier variable's) rather than replacing it. */
  append?: true;
}

const text = (raw: string) => raw;
const integer = (raw: string) => (/^-?\d+$/.test(raw.trim()) ? Number(raw) : raw);
const boolean = (raw: string) => {
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(value)) return false;
  return raw;
};
/** `ci=key1,ops=key2`, or bare keys `key1,key2` (without a name). */
const keyEntries = (raw: string) =>
  raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const eq = entry.indexOf('=');
      return eq > 0 ? { name: entry.slice(0, eq), key: entry.slice(eq + 1) } : { key: entry };
    });
/** `SWITCHBOARD_API_KEYS=ci=key1,ops=key2` or a bare `key1,key2`. */
const apiKeys = (raw: string) => keyEntries(raw).map((entry) => (entry.name === undefined ? entry.key : entry));
/** Keys with a grant of their own (`name=key,...`): named, as the grant's entries must be. */
const grantedKeys = (grant: { admin: true } | { metrics_only: true }) => (raw: string) =>
  keyEntries(raw).map((entry) => ({ ...entry, ...grant }));

export const ENV_OVERRIDES: EnvOverride[] = [
  { env: 'HOST', path: ['server', 'host'], parse: text },
  { env: 'PORT', path: ['server', 'port'], parse: integer },
  { env: 'SWITCHBOARD_PUBLIC_URL', path: ['server', 'public_url'], parse: text },
  { env: 'SWITCHBOARD_BODY_LIMIT_BYTES', path: ['server', 'body_limit_bytes'], parse: integer },
  { env: 'SWITCHBOARD_HEADERS_TIMEOUT_MS', path: ['server', 'headers_timeout_ms'], parse: integer },
  { env: 'SWITCHBOARD_REQUEST_TIMEOUT_MS', path: ['server', 'request_timeout_ms'], parse: integer },
  { env: 'SWITCHBOARD_KEEP_ALIVE_TIMEOUT_MS', path: ['server', 'keep_alive_timeout_ms'], parse: integer },
  { env: 'SWITCHBOARD_MAX_CONNECTIONS', path: ['server', 'max_connections'], parse: integer },
  { env: 'SWITCHBOARD_GRPC_PORT', path: ['a2a', 'grpc', 'port'], parse: integer },
  { env: 'SWITCHBOARD_MAX_MESSAGE_PARTS', path: ['a2a', 'max_message_parts'], parse: integer },
  { env: 'SWITCHBOARD_MAX_MESSAGE_TEXT_CHARS', path: ['a2a', 'max_message_text_chars'], parse: integer },
  { env: 'SWITCHBOARD_API_KEYS', path: ['auth', 'api_keys'], parse: apiKeys },
  // After SWITCHBOARD_API_KEYS, whose list they add to: operator keys (the console), and scrape keys (/metrics alone).
  { env: 'SWITCHBOARD_ADMIN_KEYS', path: ['auth', 'api_keys'], parse: grantedKeys({ admin: true }), append: true },
  {
    env: 'SWITCHBOARD_METRICS_KEYS',
    path: ['auth', 'api_keys'],
    parse: grantedKeys({ metrics_only: true }),
    append: true,
  },
  { env: 'SWITCHBOARD_ALLOW_OPEN', path: ['auth', 'allow_open'], parse: boolean },
  { env: 'SWITCHBOARD_RATE_LIMIT', path: ['rate_limit', 'limit'], parse: integer },
  { env: 'SWITCHBOARD_RATE_LIMIT_WINDOW_SECS', path: ['rate_limit', 'window_secs'], parse: integer },
  { env: 'SWITCHBOARD_CATALOG_KEY', path: ['catalog', 'encryption_key'], parse: text },
  { env: 'DATABASE_URL', path: ['database', 'url'], parse: text },
  { env: 'REDIS_URL', path: ['redis', 'url'], parse: text },
  { env: 'SWITCHBOARD_REDIS_PREFIX', path: ['redis', 'key_prefix'], parse: text },
  { env: 'SWITCHBOARD_WORKER_IN_API', path: ['queue', 'worker_in_api'], parse: boolean },
  { env: 'SWITCHBOARD_QUEUE_CONCURRENCY', path: ['queue', 'concurrency'], parse: integer },
  { env: 'SWITCHBOARD_WORKER_HEALTH_PORT', path: ['queue', 'health_port'], parse: integer },
  { env: 'SWITCHBOARD_TRACING_ENABLED', path: ['tracing', 'enabled'], parse: boolean },
  { env: 'SWITCHBOARD_TRACE_URL', path: ['tracing', 'trace_url'], parse: text },
  { env: 'LOG_LEVEL', path: ['log', 'level'], parse: text },
  { env: 'SWITCHBOARD_LOG_PRETTY', path: ['log', 'pretty'], parse: boolean },
];

export const CONFIG_FILE_ENV = 'SWITCHBOARD_CONFIG';

/** Switchboard's own variables: an entry of the admin API may not hand them to an upstream (`${DATABASE_URL}`). */
export function isOwnVariable(name: string): boolean {
  return name === CONFIG_FILE_ENV || ENV_OVERRIDES.some((override) => override.env === name);
}
