/**
 * Retention bounds memory: a durable API and worker with `tasks.max_tasks` set get many more tasks
 * than that (blocking, streaming and non-blocking sends in turn); after the first `--checkpoint`
 * tasks and after all of them, once every turn has ended and retention has run, it prints the API's
 * and the worker's RSS and the API's V8 heap at rest (the lowest seen over 60 s idle), the task rows,
 * and the Redis keys and bytes under the run's prefix by kind. Target: API RSS after all tasks
 * within 50 MB of after the checkpoint.
 * Usage: npm run bench:retention -- [--tasks 20000] [--max-tasks 1000] [--checkpoint 1000] [--concurrency 16]
 * Reads TEST_DATABASE_URL and TEST_REDIS_URL, with the tests' defaults.
 */
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import { ensureSwitchboardBuilt } from '../a2a/build';
import { positiveInteger } from '../a2a/cli-options';
import { rssMb, runBench, type ServerProcess } from '../a2a/processes';
import { startDurable } from '../a2a/servers';
import { redisFootprint, type RedisFootprint } from './redis-footprint';
import { type Api, createTasks } from './task-load';

/** Retention runs this often in the bench, so that the store is trimmed while the load runs. */
const RETENTION_INTERVAL_SECS = 2;
/**
 * After the last turn ended and retention ran, the API is left idle this long and its lowest RSS
 * and heap are taken: V8 gives memory back only after a while at rest (its memory reducer), so a
 * single sample lands anywhere in a garbage-collection cycle (seen: 160 to 270 MB for one state); it
 * has run about 30 s into a rest.
 */
const AT_REST_MS = 60_000;
const SAMPLE_MS = 1_000;
const SETTLE_TIMEOUT_MS = 120_000;
const TARGET_RSS_GROWTH_MB = 50;
const MB = 1024 * 1024;

interface Measurement {
  label: string;
  taskRows: number;
  apiRssMb: number;
  apiHeapMb: number;
  workerRssMb: number;
  redis: RedisFootprint;
}

function options() {
  const { values } = parseArgs({
    options: {
      tasks: { type: 'string', default: '20000' },
      'max-tasks': { type: 'string', default: '1000' },
      checkpoint: { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '16' },
    },
  });
  const positive = (name: keyof typeof values) => positiveInteger(name, values[name]);
  return {
    tasks: positive('tasks'),
    maxTasks: positive('max-tasks'),
    checkpoint: positive('checkpoint'),
    concurrency: positive('concurrency'),
  };
}

/** Waits until no task is active and retention has trimmed the store to `maxTasks`; returns the task rows. */
async function settle(databaseUrl: string, maxTasks: number, processes: ServerProcess[]): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    for (;;) {
      const dead = processes.find((p) => !p.running);
      if (dead) throw new Error(`${dead.name} exited (${dead.exitStatus}):\n${dead.tail()}`);
      const { rows } = await db.query<{ total: string; active: string }>(
        `SELECT count(*) AS total, count(*) FILTER (WHERE state NOT IN ('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED')) AS active FROM tasks`,
      );
      const total = Number(rows[0].total);
      if (Number(rows[0].active) === 0 && total <= maxTasks) return total;
      if (Date.now() > deadline)
        throw new Error(`not settled after ${SETTLE_TIMEOUT_MS} ms: ${JSON.stringify(rows[0])}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await db.end();
  }
}

async function heapUsedMb(api: Api): Promise<number> {
  const metrics = await (await fetch(`${api.baseUrl}/metrics`, { headers: api.headers })).text();
  const match = /^switchboard_nodejs_heap_size_used_bytes (\S+)$/m.exec(metrics);
  return match ? Number(match[1]) / MB : NaN;
}

/** The lowest RSS of the API and the worker, and heap of the API, seen while they are left at rest. */
async function atRest(
  api: ServerProcess,
  worker: ServerProcess,
  endpoint: Api,
): Promise<{ apiRssMb: number; apiHeapMb: number; workerRssMb: number }> {
  const lowest = { apiRssMb: Infinity, apiHeapMb: Infinity, workerRssMb: Infinity };
  for (const until = Date.now() + AT_REST_MS; Date.now() < until;) {
    lowest.apiRssMb = Math.min(lowest.apiRssMb, rssMb(api.pid) ?? NaN);
    lowest.workerRssMb = Math.min(lowest.workerRssMb, rssMb(worker.pid) ?? NaN);
    lowest.apiHeapMb = Math.min(lowest.apiHeapMb, await heapUsedMb(endpoint));
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  return lowest;
}

function print(measurements: Measurement[]): void {
  const kinds = [...new Set(measurements.flatMap((m) => Object.keys(m.redis.keysByKind)))].sort();
  const rows: [string, ...string[]][] = [
    ['', ...measurements.map((m) => m.label)],
    ['task rows', ...measurements.map((m) => String(m.taskRows))],
    ['API RSS at rest (MB)', ...measurements.map((m) => m.apiRssMb.toFixed(1))],
    ['API heap used at rest (MB)', ...measurements.map((m) => m.apiHeapMb.toFixed(1))],
    ['worker RSS at rest (MB)', ...measurements.map((m) => m.workerRssMb.toFixed(1))],
    ['Redis keys', ...measurements.map((m) => String(m.redis.keys))],
    ...kinds.map((kind): [string, ...string[]] => [
      `  ${kind}`,
      ...measurements.map((m) => String(m.redis.keysByKind[kind] ?? 0)),
    ]),
    ['Redis memory (MB)', ...measurements.map((m) => (m.redis.bytes / MB).toFixed(2))],
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows)
    console.log(
      row.map((cell, column) => (column === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[column]))).join('  '),
    );
}

async function main(): Promise<void> {
  const { tasks, maxTasks, checkpoint, concurrency } = options();
  if (checkpoint >= tasks) throw new Error('--checkpoint must be below --tasks');
  if (await ensureSwitchboardBuilt()) console.log('built Switchboard (dist/ was missing or older than src/)');
  const server = await startDurable([], {
    apis: 1,
    workers: 1,
    config: `[tasks]\nmax_tasks = ${maxTasks}\nretention_interval_secs = ${RETENTION_INTERVAL_SECS}\n`,
  });
  const [api, worker] = server.processes;
  const { databaseUrl, redisUrl, redisPrefix: prefix } = server.stores!;
  const endpoint: Api = { baseUrl: server.baseUrl, headers: server.headers };
  console.log(
    `retention bench: ${tasks} tasks, max_tasks ${maxTasks}, ${concurrency} in flight, retention every ${RETENTION_INTERVAL_SECS} s`,
  );
  const measurements: Measurement[] = [];
  const measure = async (label: string) => {
    const taskRows = await settle(databaseUrl, maxTasks, [api, worker]);
    measurements.push({
      label,
      taskRows,
      ...(await atRest(api, worker, endpoint)),
      redis: await redisFootprint(redisUrl, prefix),
    });
    console.log(`${label}: measured`);
  };
  const started = Date.now();
  await createTasks(endpoint, 0, checkpoint, concurrency);
  await measure(`after ${checkpoint}`);
  await createTasks(endpoint, checkpoint, tasks, concurrency);
  await measure(`after ${tasks}`);
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  print(measurements);
  const growth = measurements[1].apiRssMb - measurements[0].apiRssMb;
  console.log(
    `\nAPI RSS growth ${growth.toFixed(1)} MB (target: within ${TARGET_RSS_GROWTH_MB} MB): ${growth <= TARGET_RSS_GROWTH_MB ? 'met' : 'NOT met'}`,
  );
}

runBench(main);
