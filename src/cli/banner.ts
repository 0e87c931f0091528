import type { SwitchboardConfig } from '../config/config.schema';
import { isEmbedded, type StorageMode, storageMode } from '../config/storage-mode';
import { isLoopbackHost } from '../security/listen-policy';
import { SWITCHBOARD_VERSION } from '../common/version';
import { tracingOn } from '../tracing/spans';

export type BannerFacts =
  { role: 'api'; url: string; configFile?: string } | { role: 'worker'; healthUrl?: string; configFile?: string };

/**
 * A few plain lines for a person at a terminal, beside the JSON log lines meant for machines: what
 * runs where, whether anyone may call it without a key, where its tasks live, where its console is
 * and whether it exports traces.
 */
export function startupBanner(config: SwitchboardConfig, facts: BannerFacts): string {
  const mode = storageMode(config);
  const rows: [string, string][] = [
    ['mode', describeMode(mode)],
    [
      'tasks',
      mode.tasks === 'postgres'
        ? `in Postgres at ${location(config.database.url!)}`
        : 'in memory: lost when this process stops',
    ],
    ['turns', describeTurns(config, mode, facts.role)],
    [
      'catalog',
      mode.tasks === 'postgres'
        ? "the file's entries, and the admin API's in Postgres (SIGHUP reloads the file)"
        : "the file's entries; the admin API's in memory: lost when this process stops",
    ],
  ];
  if (facts.role === 'api') rows.push(['auth', describeAuth(config)]);
  else
    rows.push(['probes', facts.healthUrl ?? 'none (set SWITCHBOARD_WORKER_HEALTH_PORT to serve /healthz and /readyz)']);
  if (facts.role === 'api' && config.a2a.enabled)
    rows.push([
      'console',
      `${facts.url}/console${config.auth.api_keys.length > 0 ? ' (log in with a key granted admin)' : ''}`,
    ]);
  rows.push([
    'traces',
    tracingOn()
      ? 'exported over OTLP (the OTEL_EXPORTER_OTLP_* variables, [tracing])'
      : 'off (set OTEL_EXPORTER_OTLP_ENDPOINT to export them)',
  ]);
  rows.push([
    'config',
    facts.configFile ?? 'no file: defaults and environment (./switchboard.toml or SWITCHBOARD_CONFIG)',
  ]);
  const title =
    facts.role === 'api'
      ? `Switchboard ${SWITCHBOARD_VERSION} is listening on ${facts.url}`
      : `Switchboard ${SWITCHBOARD_VERSION} worker is running`;
  const width = Math.max(...rows.map(([name]) => name.length));
  return [title, ...rows.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`)].join('\n');
}

function describeMode(mode: StorageMode): string {
  if (isEmbedded(mode))
    return 'EMBEDDED: one process, for trying things out (set DATABASE_URL and REDIS_URL for durable mode)';
  if (mode.tasks === 'postgres' && mode.shared === 'redis')
    return 'durable: Postgres and Redis, shared by every replica and worker';
  return 'PARTIALLY EMBEDDED: set both DATABASE_URL and REDIS_URL for durable mode';
}

function describeTurns(config: SwitchboardConfig, mode: StorageMode, role: BannerFacts['role']): string {
  if (mode.shared === 'memory') return 'run in this process';
  const queue = `queued in Redis at ${location(config.redis.url!)}`;
  if (role === 'worker') return `${queue}, run here (${config.queue.concurrency} at a time)`;
  return config.queue.worker_in_api
    ? `${queue}, run here and by any \`switchboard worker\``
    : `${queue}, run by \`switchboard worker\` processes only`;
}

function describeAuth(config: SwitchboardConfig): string {
  const keys = config.auth.api_keys.length;
  if (keys > 0) return `on: ${keys} API key${keys === 1 ? '' : 's'}; requests need Authorization: Bearer <key>`;
  const reach = isLoopbackHost(config.server.host) ? '' : ` to anyone who can reach ${config.server.host}`;
  return `OFF: no API keys, every route answers without Authorization${reach} (set SWITCHBOARD_API_KEYS=name=<16+ characters>)`;
}

/** Host, port and database of a store URL, never its credentials. */
function location(url: string): string {
  const { host, pathname } = new URL(url);
  return `${host}${pathname === '/' ? '' : pathname}`;
}
