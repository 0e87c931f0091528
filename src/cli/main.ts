/** The `switchboard` command: `serve` (HTTP API), `worker` (queue workers), `mcp` (MCP over stdio) and `migrate`. */
import 'reflect-metadata';
import { type INestApplicationContext, Logger } from '@nestjs/common';
import { createAppContext, createHttpApp, createWorkerApp } from '../app.factory';
import { ConfigError } from '../config/config-error';
import { loadConfig, type LoadedConfig } from '../config/config.loader';
import type { SwitchboardConfig } from '../config/config.schema';
import { loadStdioRelaySettings } from '../config/mcp-relay.settings';
import { isEmbedded, storageMode } from '../config/storage-mode';
import { applyMigrations } from '../database/migrator';
import { MIGRATIONS_DIR } from '../database/schema-version';
import { MetricsEndpoint } from '../health/metrics-endpoint';
import { ReadinessService } from '../health/readiness.service';
import { startWorkerHealthServer } from '../health/worker-health.server';
import { FramedStdioTransport } from '../mcp-server/stdio/framed-stdio-transport';
import { proxyStdio, serveEmbeddedStdio } from '../mcp-server/stdio/mcp-stdio-server';
import { SwitchboardMcpServerFactory } from '../mcp-server/server/switchboard-mcp-server.factory';
import { assertSafeToListen } from '../security/listen-policy';
import { startTracing, type Tracing } from '../tracing/tracing-sdk';
import { type BannerFacts, startupBanner } from './banner';
import { EMBEDDED_FALLBACK_FLAG, parseCommandLine } from './command-line';
import { checkDatabaseAtBoot, migrationFailure } from './database-check';
import { assertKeyAccepted, whyNotAnswering } from './relay-checks';
import { stderrJsonLogger } from './stderr-json-logger';
import { API_PORT, assertCanListen, describeListenError, WORKER_HEALTH_PORT } from './listen-check';
import { EXIT_CONFIG, EXIT_UNAVAILABLE, EXIT_USAGE, StartupError } from './startup-error';

/** Delegates to the app's pino logger once an app has called useLogger. */
const logger = new Logger('switchboard');

async function main(args: string[]): Promise<void> {
  const invocation = parseCommandLine(args);
  if (invocation.kind === 'print') {
    process.stdout.write(`${invocation.text}\n`);
    return;
  }
  if (invocation.kind === 'usage-error') throw new StartupError(invocation.text, EXIT_USAGE);
  switch (invocation.command) {
    case 'mcp':
      return mcp(invocation.flags.includes(EMBEDDED_FALLBACK_FLAG));
    case 'migrate':
      return migrate(loadConfig().config);
    case 'serve':
      return serve(loadConfig());
    case 'worker':
      return work(loadConfig());
    case 'check':
      return check(loadConfig());
  }
}

/** What `serve` would refuse before touching a store: the loader's checks (the keys' included), then the listen policy. */
function check({ config, file }: LoadedConfig): void {
  assertSafeToListen(config);
  const mode = storageMode(config);
  const summary = [
    `tasks in ${mode.tasks}`,
    `${config.agents.length} agent(s)`,
    `${config.mcp_servers.length} MCP server(s)`,
    `${config.a2a.external_agents.length} external agent(s)`,
    `${config.auth.api_keys.length} API key(s)`,
  ];
  process.stdout.write(
    `The configuration is valid (${file ?? 'no file: defaults and environment'}): ${summary.join(', ')}.\n`,
  );
}

async function serve({ config, file }: LoadedConfig): Promise<void> {
  const { host, port } = config.server;
  assertSafeToListen(config);
  await assertCanListen(host, port, API_PORT);
  await checkDatabaseAtBoot(config.database.url, warnOnStderr);
  const tracing = await startTracing(config.tracing, 'api');
  const app = await createHttpApp(config);
  announce(app, config, file);
  if (config.auth.api_keys.length === 0) {
    logger.warn(
      'OPEN MODE: no API keys are configured, every route answers without Authorization. Set SWITCHBOARD_API_KEYS to require one.',
    );
  }
  try {
    await app.listen({ host, port });
  } catch (error) {
    throw describeListenError(error, host, port, API_PORT);
  }
  const url = await app.getUrl();
  logger.log({ url }, 'switchboard listening');
  showBanner(config, { role: 'api', url, configFile: file });
  stopOnSignals(app, config, tracing);
}

async function work({ config, file }: LoadedConfig): Promise<void> {
  if (!config.redis.url) {
    throw new ConfigError('worker', ['redis.url: the worker process needs Redis (REDIS_URL) to take jobs from']);
  }
  const { host } = config.server;
  const port = config.queue.health_port;
  if (port !== undefined) await assertCanListen(host, port, WORKER_HEALTH_PORT);
  await checkDatabaseAtBoot(config.database.url, warnOnStderr);
  const tracing = await startTracing(config.tracing, 'worker');
  const app = await createWorkerApp(config);
  announce(app, config, file);
  await app.init();
  const health =
    port === undefined
      ? undefined
      : await startWorkerHealthServer(app.get(ReadinessService), app.get(MetricsEndpoint), host, port).catch(
          (error: unknown) => {
            throw describeListenError(error, host, port, WORKER_HEALTH_PORT);
          },
        );
  const healthUrl = port === undefined ? undefined : `http://${host}:${port}/readyz`;
  logger.log(healthUrl ? { healthUrl } : {}, 'switchboard worker running');
  showBanner(config, { role: 'worker', healthUrl, configFile: file });
  stopOnSignals(app, config, tracing, () => health?.close());
}

async function migrate(config: SwitchboardConfig): Promise<void> {
  if (!config.database.url)
    throw new ConfigError('migrate', ['database.url: `switchboard migrate` needs a database (DATABASE_URL)']);
  const applied = await applyMigrations(config.database.url, MIGRATIONS_DIR).catch((error: unknown) => {
    throw migrationFailure(error);
  });
  process.stderr.write(
    applied.length > 0
      ? `Applied ${applied.length} migration(s): ${applied.join(', ')}\n`
      : 'The database is up to date: no migration to apply.\n',
  );
}

/**
 * MCP over stdio. Stdout carries the protocol, so every log line goes to stderr. A SWITCHBOARD_URL
 * that does not answer is an error (its tools are not this process's), unless `embeddedFallback`.
 */
async function mcp(embeddedFallback: boolean): Promise<void> {
  const { url, apiKey, log } = loadStdioRelaySettings();
  Logger.overrideLogger(stderrJsonLogger(log));
  const wire = new FramedStdioTransport();
  const unreachable = url === undefined ? undefined : await whyNotAnswering(`${url}/healthz`);
  if (url && unreachable === undefined) {
    await assertKeyAccepted(url, apiKey);
    logger.log(`relaying MCP over stdio to ${url}/mcp`);
    await proxyStdio(new URL(`${url}/mcp`), apiKey, wire);
    process.exit(0);
  }
  if (url && !embeddedFallback) {
    throw new StartupError(
      `switchboard mcp: no Switchboard answers at SWITCHBOARD_URL=${url} (GET ${url}/healthz: ${unreachable}). ` +
        `Start it or fix the URL; to run the agents in this process instead, pass ${EMBEDDED_FALLBACK_FLAG}.`,
      EXIT_UNAVAILABLE,
    );
  }
  const loaded = loadConfig();
  const config: SwitchboardConfig = { ...loaded.config, log: { ...loaded.config.log, destination: 'stderr' } };
  if (!config.a2a.enabled || !config.mcp_server.enabled) {
    throw new ConfigError('mcp', [
      'a2a.enabled and mcp_server.enabled: `switchboard mcp` serves the agents, which need both',
    ]);
  }
  await checkDatabaseAtBoot(config.database.url, warnOnStderr);
  const tracing = await startTracing(config.tracing, 'stdio');
  const app = await createAppContext(config, 'stdio');
  logger.warn(
    { switchboardUrl: url ?? null },
    url
      ? `no Switchboard answers at ${url}: running EMBEDDED in this process`
      : 'SWITCHBOARD_URL not set: running EMBEDDED in this process',
  );
  announce(app, config, loaded.file);
  await app.init();
  await serveEmbeddedStdio(app.get(SwitchboardMcpServerFactory, { strict: false }), wire);
  await app.close();
  await tracing.shutdown();
  process.exit(0);
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
    logger.warn(
      { ...mode },
      'PARTIALLY EMBEDDED: set both DATABASE_URL and REDIS_URL for durable, multi-replica operation',
    );
  }
}

/** For a person at a terminal: JSON log lines are for machines, pretty ones say it all themselves. */
function showBanner(config: SwitchboardConfig, facts: BannerFacts): void {
  if (!config.log.pretty) process.stderr.write(`${startupBanner(config, facts)}\n`);
}

function warnOnStderr(message: string): void {
  process.stderr.write(`switchboard: ${message}\n`);
}

/**
 * A terminal's Ctrl-C reaches every process of `npm start`, and npm forwards its copy to the server
 * (npm/cli#5021): the same signal this soon after the first is that copy, not a second signal.
 */
const FORWARDED_COPY_MS = 1_000;

/**
 * First signal: drain and close (in-flight requests and jobs finish), then send the spans not sent
 * yet. Timeout or second signal: exit now.
 */
function stopOnSignals(
  app: INestApplicationContext,
  config: SwitchboardConfig,
  tracing: Tracing,
  beforeClose: () => void = () => {},
): void {
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (first && signal === first.signal && performance.now() - first.at < FORWARDED_COPY_MS) {
      logger.log(
        { signal },
        'the same signal again within a second: taken as the forwarded copy of the first (npm start), still draining',
      );
      return;
    }
    if (first) {
      logger.warn({ signal }, 'second signal, exiting without draining');
      process.exit(1);
    }
    first = { signal, at: performance.now() };
    logger.log({ signal }, 'shutting down: draining requests and jobs');
    const deadline = setTimeout(() => {
      logger.error({ timeoutSecs: config.server.shutdown_timeout_secs }, 'shutdown timed out, exiting');
      process.exit(1);
    }, config.server.shutdown_timeout_secs * 1000);
    deadline.unref();
    beforeClose();
    app.close().then(
      () => tracing.shutdown().finally(() => process.exit(0)),
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
    process.exit(EXIT_CONFIG);
  }
  if (error instanceof StartupError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`switchboard failed to start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
