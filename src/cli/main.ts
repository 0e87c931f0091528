/** The `switchboard` command: `serve` (HTTP API), `worker` (queue workers), `mcp` (MCP over stdio) and `migrate`. */
import 'reflect-metadata';
import { ConsoleLogger, INestApplicationContext, Logger, LogLevel } from '@nestjs/common';
import { resolve } from 'node:path';
import { createAppContext, createHttpApp, createWorkerApp } from '../app.factory';
import { ConfigError } from '../config/config-error';
import { loadConfig, LoadedConfig } from '../config/config.loader';
import type { SwitchboardConfig } from '../config/config.schema';
import { loadStdioRelaySettings } from '../config/mcp-relay.settings';
import { isEmbedded, storageMode } from '../config/storage-mode';
import { applyMigrations } from '../database/migrator';
import { ReadinessService } from '../health/readiness.service';
import { startWorkerHealthServer } from '../health/worker-health.server';
import { FramedStdioTransport } from '../mcp-server/framed-stdio-transport';
import { proxyStdio, serveEmbeddedStdio } from '../mcp-server/mcp-stdio-server';
import { SwitchboardMcpServerFactory } from '../mcp-server/switchboard-mcp-server.factory';
import { assertSafeToListen } from '../security/listen-policy';

const USAGE = `Usage: switchboard <command>

Commands:
  serve    Run the HTTP API (A2A, MCP, health). Default command.
  worker   Run queue workers only (agent turns, retention).
  mcp      Serve MCP over stdio: relays to the Switchboard at SWITCHBOARD_URL (with
           SWITCHBOARD_API_KEY) if it answers, else runs the agents in this process.
  migrate  Apply the database migrations (DATABASE_URL) and exit; safe to run again.

Configuration: ./switchboard.toml or the file named by SWITCHBOARD_CONFIG, then environment
overrides (DATABASE_URL, REDIS_URL, PORT, HOST, SWITCHBOARD_API_KEYS, ...). See README.md.`;

const EXIT_CONFIG_ERROR = 78;
/** Delegates to the app's pino logger once an app has called useLogger. */
const logger = new Logger('switchboard');

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? 'serve';
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command === 'mcp') return mcp();
  if (command === 'migrate') return migrate(loadConfig().config);
  if (command !== 'serve' && command !== 'worker') {
    process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`);
    process.exit(64);
  }
  const loaded = loadConfig();
  if (command === 'serve') await serve(loaded);
  else await work(loaded);
}

async function serve({ config, file }: LoadedConfig): Promise<void> {
  assertSafeToListen(config);
  const app = await createHttpApp(config);
  announce(app, config, file);
  await app.listen({ host: config.server.host, port: config.server.port });
  logger.log({ url: await app.getUrl() }, 'switchboard listening');
  stopOnSignals(app, config);
}

async function work({ config, file }: LoadedConfig): Promise<void> {
  if (!config.redis.url) {
    throw new ConfigError('worker', ['redis.url: the worker process needs Redis (REDIS_URL) to take jobs from']);
  }
  const app = await createWorkerApp(config);
  announce(app, config, file);
  await app.init();
  const port = config.queue.health_port;
  const health = port === undefined ? undefined : await startWorkerHealthServer(app.get(ReadinessService), config.server.host, port);
  logger.log(port === undefined ? {} : { healthUrl: `http://${config.server.host}:${port}/readyz` }, 'switchboard worker running');
  stopOnSignals(app, config, () => health?.close());
}

/** The migrations ship beside dist/ (and src/): the package's own `prisma/migrations`. */
const MIGRATIONS_DIR = resolve(__dirname, '../../prisma/migrations');

async function migrate(config: SwitchboardConfig): Promise<void> {
  if (!config.database.url) throw new ConfigError('migrate', ['database.url: `switchboard migrate` needs a database (DATABASE_URL)']);
  const applied = await applyMigrations(config.database.url, MIGRATIONS_DIR);
  process.stderr.write(applied.length > 0 ? `Applied ${applied.length} migration(s): ${applied.join(', ')}\n` : 'The database is up to date: no migration to apply.\n');
}

/** How long `switchboard mcp` waits for SWITCHBOARD_URL's health check before running in-process. */
const PROXY_PROBE_TIMEOUT_MS = 2_000;

/** MCP over stdio. Stdout carries the protocol, so every log line goes to stderr. */
async function mcp(): Promise<void> {
  const { url, apiKey } = loadStdioRelaySettings();
  Logger.overrideLogger(new StderrLogger());
  const wire = new FramedStdioTransport();
  if (url && (await answers(`${url}/healthz`))) {
    logger.log(`relaying MCP over stdio to ${url}/mcp`);
    await proxyStdio(new URL(`${url}/mcp`), apiKey, wire);
    process.exit(0);
  }
  const loaded = loadConfig();
  const config: SwitchboardConfig = { ...loaded.config, log: { ...loaded.config.log, destination: 'stderr' } };
  if (!config.a2a.enabled || !config.mcp_server.enabled) {
    throw new ConfigError('mcp', ['a2a.enabled and mcp_server.enabled: `switchboard mcp` serves the agents, which need both']);
  }
  const app = await createAppContext(config, 'stdio');
  logger.warn(
    { switchboardUrl: url ?? null },
    url ? `no Switchboard answers at ${url}: running EMBEDDED in this process` : 'SWITCHBOARD_URL not set: running EMBEDDED in this process',
  );
  announce(app, config, loaded.file);
  await app.init();
  await serveEmbeddedStdio(app.get(SwitchboardMcpServerFactory, { strict: false }), wire);
  await app.close();
  process.exit(0);
}

/** Nest's console logger (used until an app's pino logger takes over), writing to stderr. */
class StderrLogger extends ConsoleLogger {
  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel, _stream?: 'stdout' | 'stderr', errorStack?: unknown): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}

async function answers(healthUrl: string): Promise<boolean> {
  try {
    return (await fetch(healthUrl, { signal: AbortSignal.timeout(PROXY_PROBE_TIMEOUT_MS) })).ok;
  } catch {
    return false;
  }
}

function announce(app: INestApplicationContext, config: SwitchboardConfig, file: string | undefined): void {
  const mode = storageMode(config);
  logger.log({ configFile: file ?? null, tasks: mode.tasks, shared: mode.shared }, 'configuration loaded');
  if (isEmbedded(mode)) {
    logger.warn(
      'EMBEDDED MODE: tasks are kept in memory and lost on restart, agent turns run in this process, ' +
        'rate limits are per process. Set DATABASE_URL and REDIS_URL for durable, multi-replica operation.',
    );
  } else if (mode.tasks === 'memory' || mode.shared === 'memory') {
    logger.warn({ ...mode }, 'PARTIALLY EMBEDDED: set both DATABASE_URL and REDIS_URL for durable, multi-replica operation');
  }
}

/** First signal: drain and close (in-flight requests and jobs finish). Timeout or second signal: exit now. */
function stopOnSignals(app: INestApplicationContext, config: SwitchboardConfig, beforeClose: () => void = () => {}): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
      logger.warn({ signal }, 'second signal, exiting without draining');
      process.exit(1);
    }
    stopping = true;
    logger.log({ signal }, 'shutting down: draining requests and jobs');
    const deadline = setTimeout(() => {
      logger.error({ timeoutSecs: config.server.shutdown_timeout_secs }, 'shutdown timed out, exiting');
      process.exit(1);
    }, config.server.shutdown_timeout_secs * 1000);
    deadline.unref();
    beforeClose();
    app.close().then(
      () => process.exit(0),
      (error: Error) => {
        logger.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(EXIT_CONFIG_ERROR);
  }
  process.stderr.write(`switchboard failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
