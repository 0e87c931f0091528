/**
 * Soak: blocking SendMessage load on Switchboard durable (API + one worker, started as bench:a2a
 * starts it) with retention on and a small `tasks.max_tasks`, for `--duration` seconds. Samples the
 * API's and the worker's RSS every 10 s and prints, for each, RSS after the warm-up, at the end, the
 * peak and the slope (MB/min, least squares over the samples from the warm-up on); then the task
 * rows and table size in Postgres and the run's keys and bytes in Redis (and Redis's used_memory,
 * a figure of the whole shared server), against max_tasks.
 * Usage: npm run bench:soak -- [--duration 600] [--warm-up 60] [--connections 50] [--max-tasks 1000]
 * Exits non-zero only when the server fails (does not start, answers wrongly, a process exits);
 * load errors, slopes and sizes are reported, never failed.
 */
import Redis from 'ioredis';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { ensureSwitchboardBuilt } from '../a2a/build';
import { positiveInteger } from '../a2a/cli-options';
import { errorCount, runLoad, verifyAnswer } from '../a2a/load';
import { runBench, sampleUsage } from '../a2a/processes';
import { type DurableStores, type RunningServer, startDurable } from '../a2a/servers';
import { redisFootprint } from '../retention/redis-footprint';
import { rssTrend, sampleRss } from './rss-series';

const SAMPLE_SECS = 10;
/** Retention runs this often, so that the store is trimmed to max_tasks many times during the run. */
const RETENTION_INTERVAL_SECS = 5;
const MB = 1024 * 1024;

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '600' },
      'warm-up': { type: 'string', default: '60' },
      connections: { type: 'string', default: '50' },
      'max-tasks': { type: 'string', default: '1000' },
    },
  });
  const durationSecs = positiveInteger('duration', values.duration);
  const warmUpSecs = positiveInteger('warm-up', values['warm-up']);
  if (warmUpSecs >= durationSecs)
    throw new Error(`--warm-up (${warmUpSecs} s) must be shorter than --duration (${durationSecs} s)`);
  return {
    durationSecs,
    warmUpSecs,
    connections: positiveInteger('connections', values.connections),
    maxTasks: positiveInteger('max-tasks', values['max-tasks']),
  };
}

async function taskTable(databaseUrl: string): Promise<{ rows: number; bytes: number }> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ rows: string; bytes: string }>(
      `SELECT (SELECT count(*) FROM tasks) AS rows, pg_total_relation_size('tasks') AS bytes`,
    );
    return { rows: Number(rows[0].rows), bytes: Number(rows[0].bytes) };
  } finally {
    await db.end();
  }
}

/** used_memory of the whole Redis server: shared with whatever else uses it. */
async function redisUsedMemory(url: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1] ?? NaN);
  } finally {
    redis.disconnect();
  }
}

function printStores(
  stores: DurableStores,
  maxTasks: number,
  table: { rows: number; bytes: number },
  usedMemory: { start: number; end: number },
  redis: Awaited<ReturnType<typeof redisFootprint>>,
): void {
  console.log(
    `\nat the end (max_tasks ${maxTasks}; retention every ${RETENTION_INTERVAL_SECS} s, so the tasks of one interval come on top)`,
  );
  console.log(
    `  Postgres tasks: ${table.rows} rows (${(table.rows / maxTasks).toFixed(2)}x max_tasks), table with indexes and TOAST ${(table.bytes / MB).toFixed(1)} MB`,
  );
  const kinds = Object.entries(redis.keysByKind)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, keys]) => `${kind} ${keys}`)
    .join(', ');
  console.log(
    `  Redis keys under ${stores.redisPrefix}: ${redis.keys} (${kinds}), ${(redis.bytes / MB).toFixed(2)} MB (MEMORY USAGE)`,
  );
  console.log(
    `  Redis used_memory (whole server, shared): ${(usedMemory.start / MB).toFixed(1)} MB at the start, ${(usedMemory.end / MB).toFixed(1)} MB at the end`,
  );
}

async function soak(
  server: RunningServer,
  { durationSecs, warmUpSecs, connections, maxTasks }: ReturnType<typeof options>,
): Promise<void> {
  const stores = server.stores!;
  await verifyAnswer(server);
  const usedMemoryAtStart = await redisUsedMemory(stores.redisUrl);
  console.log(`durable: answers correctly; loading for ${durationSecs} s, RSS every ${SAMPLE_SECS} s`);
  const stopUsage = sampleUsage(server.processes);
  const stopRss = sampleRss(server.processes, SAMPLE_SECS, ({ atSecs, rssMb }) =>
    console.log(
      `  ${atSecs.toFixed(0).padStart(4)} s  ${[...rssMb].map(([name, mb]) => `${name} ${mb.toFixed(1)} MB`).join('  ')}`,
    ),
  );
  const result = await runLoad(server, { connections, durationSecs });
  const samples = stopRss();
  const usage = stopUsage();
  const dead = server.processes.find((p) => !p.running);
  if (dead) throw new Error(`${dead.name} exited (${dead.exitStatus}) during the load:\n${dead.tail()}`);
  const [table, usedMemoryAtEnd, redis] = await Promise.all([
    taskTable(stores.databaseUrl),
    redisUsedMemory(stores.redisUrl),
    redisFootprint(stores.redisUrl, stores.redisPrefix),
  ]);

  const errors = errorCount(result);
  const cpuMs = (1000 * [...usage.values()].reduce((sum, u) => sum + u.cpuSeconds, 0)) / result.requests;
  console.log(
    `\nload: ${result.requests} requests, ${result.reqPerSec.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, ` +
      `CPU ${cpuMs.toFixed(2)} ms/request, errors ${errors === 0 ? 0 : `${errors} of ${result.requests}: ${result.sample}`}`,
  );
  console.log(`\nRSS (MB; slope by least squares over the samples from ${warmUpSecs} s on)`);
  for (const p of server.processes) {
    const trend = rssTrend(samples, p.name, warmUpSecs);
    const slope = Number.isNaN(trend.slopeMbPerMin)
      ? '-'
      : `${trend.slopeMbPerMin >= 0 ? '+' : ''}${trend.slopeMbPerMin.toFixed(2)} MB/min`;
    console.log(
      `  ${p.name.padEnd(15)} after warm-up ${trend.afterWarmUpMb.toFixed(1)}, end ${trend.endMb.toFixed(1)}, peak ${usage.get(p.name)!.peakRssMb.toFixed(1)}, slope ${slope}`,
    );
  }
  printStores(stores, maxTasks, table, { start: usedMemoryAtStart, end: usedMemoryAtEnd }, redis);
}

async function main(): Promise<void> {
  const settings = options();
  console.log(
    `soak bench: durable (API + 1 worker), blocking SendMessage, ${settings.connections} connections, ${settings.durationSecs} s ` +
      `(warm-up ${settings.warmUpSecs} s), max_tasks ${settings.maxTasks}; Node ${process.version}, ${availableParallelism()} cores shared by the server and the load generator`,
  );
  if (await ensureSwitchboardBuilt()) console.log('built Switchboard (dist/ was missing or older than src/)');
  const server = await startDurable([], {
    apis: 1,
    workers: 1,
    config: `[tasks]\nmax_tasks = ${settings.maxTasks}\nretention_interval_secs = ${RETENTION_INTERVAL_SECS}\n`,
  });
  try {
    await soak(server, settings);
  } finally {
    await server.stop();
  }
}

runBench(main);
