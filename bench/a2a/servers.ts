/**
 * The servers under test, each started, awaited and torn down the same way: the SDK reference
 * server, Switchboard embedded (one process, memory), Switchboard durable (API + one worker process,
 * on a fresh Postgres database and a Redis key prefix of its own), durable-grpc (the same, serving
 * A2A over gRPC too), gateway and scale-out.
 */
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyMigrations,
  createDatabase,
  deleteRedisKeys,
  dropDatabase,
  testRedisUrl,
  uniqueName,
} from '../../test/support/test-database';
import { freePort } from '../../test/support/free-port';
import { compileBenchServer, ROOT, SWITCHBOARD_BIN } from './build';
import { registerCleanup, type ServerProcess, startNode, waitUntilReady } from './processes';

export const BENCH_API_KEY = 'bench-key-0123456789abcdef';

export interface RunningServer {
  name: string;
  /** Where `POST /a2a` is served. */
  baseUrl: string;
  /** Every API replica's base URL when there are several; the load spreads its connections over them. */
  replicaUrls?: string[];
  /** Where each API replica serves A2A over gRPC (`host:port`, plaintext), for a server measured over gRPC. */
  grpcAddresses?: string[];
  /** Headers every request needs besides the content type and A2A version (the API key). */
  headers: Record<string, string>;
  /** Whose RSS is sampled; the durable server has two. */
  processes: ServerProcess[];
  /** Durable only: where its tasks are kept. */
  stores?: DurableStores;
  /** Stops the processes and removes what the server was given (database, Redis keys, directories). */
  stop(): Promise<void>;
}

export type ServerName =
  'reference' | 'embedded' | 'durable' | 'durable-single' | 'durable-grpc' | 'gateway' | 'scale-out';
export const SERVER_NAMES: ServerName[] = [
  'reference',
  'embedded',
  'durable',
  'durable-single',
  'durable-grpc',
  'gateway',
  'scale-out',
];
/** What a run measures unless `--only` says otherwise: scale-out is asked for by name. */
export const DEFAULT_SERVER_NAMES: ServerName[] = ['reference', 'embedded', 'durable', 'durable-grpc', 'gateway'];
/** The servers whose load goes over gRPC instead of JSON-RPC. */
export const GRPC_SERVER_NAMES: ServerName[] = ['durable-grpc'];

/** Node's arguments for Switchboard's processes: with `profileDir`, each writes a V8 CPU profile there when it exits. */
export const profilingArgs = (profileDir?: string): string[] =>
  profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];

/** Starts a server; with `profileDir`, Switchboard's processes write V8 CPU profiles there when they exit. */
export function startServer(name: ServerName, profileDir?: string): Promise<RunningServer> {
  const nodeArgs = profilingArgs(profileDir);
  const starters = {
    reference: startReference,
    embedded: startEmbedded,
    durable: (args: string[]) => startDurable(args),
    'durable-single': (args: string[]) => startDurable(args, { apis: 1, workers: 0 }),
    'durable-grpc': (args: string[]) => startDurable(args, { apis: 1, workers: 1, grpc: true }),
    gateway: startGateway,
    'scale-out': (args: string[]) => startDurable(args, { apis: 2, workers: 2 }),
  };
  return starters[name](nodeArgs);
}

/** A scratch directory removed with the server: the reference build, or Switchboard's working directory. */
export function scratchDir(label: string): { path: string; remove: () => Promise<void> } {
  const path = mkdtempSync(join(tmpdir(), `bench-a2a-${label}-`));
  return { path, remove: async () => rmSync(path, { recursive: true, force: true }) };
}

/** Wraps `stop` so that it runs once, whether main calls it or a Ctrl-C does. */
function stoppable(server: Omit<RunningServer, 'stop'>, teardown: () => Promise<void>): RunningServer {
  const stop = registerCleanup(async () => {
    await Promise.all(server.processes.map((p) => p.stop()));
    await teardown();
  });
  return { ...server, stop };
}

async function startReference(nodeArgs: string[] = []): Promise<RunningServer> {
  const dir = scratchDir('reference');
  const port = await freePort();
  const entry = compileBenchServer('bench/a2a/reference-server.ts', dir.path);
  const child = startNode(
    'reference',
    [...nodeArgs, entry, String(port)],
    { NODE_PATH: join(ROOT, 'node_modules') },
    ROOT,
  );
  const server = stoppable(
    { name: 'reference', baseUrl: `http://127.0.0.1:${port}`, headers: {}, processes: [child] },
    dir.remove,
  );
  await waitUntilReady(`${server.baseUrl}/${AGENT_CARD_PATH}`, server.processes).catch(stopAndThrow(server));
  return server;
}

let tracingEnv: Record<string, string> = {};

/** Has every Switchboard process started from now on export all its spans (sampled at 100%) to `endpoint`. */
export function exportTracesTo(endpoint: string): void {
  tracingEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'always_on' };
}

/** The environment of every Switchboard process: the bench's key, rate limits out of reach, quiet logs, and tracing when asked. */
function switchboardEnv(extra: Record<string, string>): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    SWITCHBOARD_API_KEYS: BENCH_API_KEY,
    SWITCHBOARD_RATE_LIMIT: '100000000',
    LOG_LEVEL: 'warn',
    ...tracingEnv,
    ...extra,
  };
}

/** With `config`, that is its switchboard.toml (the token bench trusts an issuer). */
export async function startEmbedded(nodeArgs: string[], config?: string): Promise<RunningServer> {
  // A working directory of its own, as the CLI tests use, so that no other ./switchboard.toml is picked up.
  const dir = scratchDir('embedded');
  if (config) writeFileSync(join(dir.path, 'switchboard.toml'), config);
  const port = await freePort();
  const api = startNode(
    'embedded',
    [...nodeArgs, SWITCHBOARD_BIN, 'serve'],
    switchboardEnv({ PORT: String(port) }),
    dir.path,
  );
  const server = stoppable(
    {
      name: 'embedded',
      baseUrl: `http://127.0.0.1:${port}`,
      headers: { authorization: `Bearer ${BENCH_API_KEY}` },
      processes: [api],
    },
    dir.remove,
  );
  await waitUntilReady(`${server.baseUrl}/readyz`, server.processes).catch(stopAndThrow(server));
  return server;
}

/**
 * Switchboard embedded whose primary agent is an `a2a` gateway to a reference server of its own:
 * the same load as `reference`, through Switchboard. Only Switchboard's process is sampled.
 */
async function startGateway(nodeArgs: string[]): Promise<RunningServer> {
  const upstream = await startReference();
  const dir = scratchDir('gateway');
  writeFileSync(
    join(dir.path, 'switchboard.toml'),
    `[outbound]\nallow_hosts = ["127.0.0.1"]\n[[a2a.external_agents]]\nname = "reference"\nurl = "${upstream.baseUrl}"\n` +
      `[[agents]]\nname = "gateway"\n[agents.executor]\ntype = "a2a"\nagent = "reference"\n`,
  );
  const port = await freePort();
  const api = startNode(
    'gateway',
    [...nodeArgs, SWITCHBOARD_BIN, 'serve'],
    switchboardEnv({ PORT: String(port) }),
    dir.path,
  );
  const server = stoppable(
    {
      name: 'gateway',
      baseUrl: `http://127.0.0.1:${port}`,
      headers: { authorization: `Bearer ${BENCH_API_KEY}` },
      processes: [api],
    },
    async () => {
      await upstream.stop();
      await dir.remove();
    },
  );
  await waitUntilReady(`${server.baseUrl}/readyz`, server.processes).catch(stopAndThrow(server));
  return server;
}

export interface ServiceUrls {
  databaseUrl: string;
  redisUrl: string;
}

export interface DurableStores extends ServiceUrls {
  /** The run's own Redis key prefix. */
  redisPrefix: string;
}

export interface DurableLayout {
  apis: number;
  /** None: the API runs the queue's workers itself, as `serve` does by default (queue.worker_in_api). */
  workers: number;
  /** A switchboard.toml for every process (the soak bench sets retention). */
  config?: string;
  /** The database's name, before any process starts (the budget bench turns statement logging on). */
  prepare?: (databaseName: string) => Promise<void>;
  /** The URLs a process (`api 1`, `worker 2`) connects to (the budget bench puts a counting proxy in between). */
  urlsFor?: (processName: string, urls: ServiceUrls) => ServiceUrls;
  /** Each API serves A2A over gRPC too, on a port of its own (`SWITCHBOARD_GRPC_PORT`); the name gains `-grpc`. */
  grpc?: boolean;
}

/**
 * Switchboard durable: `apis` API processes and `workers` worker processes on one fresh database and
 * Redis key prefix. With one of each, the processes are named `durable api` and `durable worker`;
 * with one API and no worker process (`durable-single`), the API runs the turns.
 */
export async function startDurable(
  nodeArgs: string[],
  layout: DurableLayout = { apis: 1, workers: 1 },
): Promise<RunningServer> {
  const shape = layout.apis > 1 ? 'scale-out' : layout.workers === 0 ? 'durable-single' : 'durable';
  const name = layout.grpc ? `${shape}-grpc` : shape;
  const dir = scratchDir(name);
  if (layout.config) writeFileSync(join(dir.path, 'switchboard.toml'), layout.config);
  const prefix = `bench-${randomBytes(6).toString('hex')}:`;
  const redisUrl = testRedisUrl();
  const databaseName = uniqueName('switchboard_bench_a2a');
  const created = createDatabase(databaseName);
  const teardown = async () => {
    // A Ctrl-C can come while the database is still being created: wait, then drop it.
    await created.catch(() => undefined);
    await dropDatabase(databaseName);
    // The rate limiter's keys are wrapped in a Redis Cluster hash tag: `{<prefix>ratelimit:...}:hits`.
    await deleteRedisKeys(prefix, redisUrl);
    await deleteRedisKeys(`{${prefix}`, redisUrl);
    await dir.remove();
  };
  // Registered before anything can fail, so the database is dropped on every way out.
  const dropEarly = registerCleanup(teardown);
  let databaseUrl: string;
  try {
    databaseUrl = (await created).url;
    await applyMigrations(databaseUrl);
    await layout.prepare?.(databaseName);
  } catch (error) {
    await dropEarly();
    throw error;
  }
  const processName = (role: string, index: number, count: number) =>
    `${name} ${role}${count > 1 ? ` ${index + 1}` : ''}`;
  const env = (processName: string) => {
    const urls = layout.urlsFor?.(processName, { databaseUrl, redisUrl }) ?? { databaseUrl, redisUrl };
    return switchboardEnv({
      DATABASE_URL: urls.databaseUrl,
      REDIS_URL: urls.redisUrl,
      SWITCHBOARD_REDIS_PREFIX: prefix,
      SWITCHBOARD_WORKER_IN_API: String(layout.workers === 0),
    });
  };
  const ports = await Promise.all(Array.from({ length: layout.apis }, () => freePort()));
  const grpcPorts = layout.grpc ? await Promise.all(ports.map(() => freePort())) : [];
  const apis = ports.map((port, index) => {
    const apiName = processName('api', index, layout.apis);
    const grpc: Record<string, string> = layout.grpc ? { SWITCHBOARD_GRPC_PORT: String(grpcPorts[index]) } : {};
    return startNode(
      apiName,
      [...nodeArgs, SWITCHBOARD_BIN, 'serve'],
      { ...env(apiName), ...grpc, PORT: String(port) },
      dir.path,
    );
  });
  const workers = Array.from({ length: layout.workers }, (_, index) => {
    const workerName = processName('worker', index, layout.workers);
    return startNode(workerName, [...nodeArgs, SWITCHBOARD_BIN, 'worker'], env(workerName), dir.path);
  });
  const replicaUrls = ports.map((port) => `http://127.0.0.1:${port}`);
  const server = stoppable(
    {
      name,
      baseUrl: replicaUrls[0],
      replicaUrls,
      grpcAddresses: layout.grpc ? grpcPorts.map((port) => `127.0.0.1:${port}`) : undefined,
      headers: { authorization: `Bearer ${BENCH_API_KEY}` },
      processes: [...apis, ...workers],
      stores: { databaseUrl, redisUrl, redisPrefix: prefix },
    },
    dropEarly,
  );
  await Promise.all(replicaUrls.map((url) => waitUntilReady(`${url}/readyz`, server.processes))).catch(
    stopAndThrow(server),
  );
  return server;
}

function stopAndThrow(server: RunningServer): (error: unknown) => Promise<never> {
  return async (error) => {
    await server.stop();
    throw error;
  };
}
