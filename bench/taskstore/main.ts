/**
 * Task store throughput: create (save of a new task), record (saveUnlessEnded, the write a turn
 * makes) and load, for Postgres, Postgres behind the Redis cache, and memory. Creates and drops its
 * own database and Redis namespace. Usage: npm run bench:taskstore -- [count] [concurrency]
 * Reads TEST_DATABASE_URL and REDIS_URL (or TEST_REDIS_URL), with the tests' defaults.
 */
import { Message, Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { performance } from 'node:perf_hooks';
import type { PrismaService } from '../../src/database/prisma.service';
import type { RedisService } from '../../src/redis/redis.service';
import { CachedTaskStore } from '../../src/task-store/cached-task-store';
import { MemoryTaskStore } from '../../src/task-store/memory-task-store';
import { PostgresTaskStore } from '../../src/task-store/postgres-task-store';
import type { TaskStore } from '../../src/task-store/task-store.interface';
import {
  applyMigrations,
  createDatabase,
  deleteRedisKeys,
  testRedisPrefix,
  testRedisUrl,
  uniqueName,
} from '../../test/support/test-database';
import { connectPrisma, connectRedis } from '../../test/support/store-connections';

const count = Number(process.argv[2] ?? 3_000);
const concurrency = Number(process.argv[3] ?? 16);
const redisUrl = process.env.REDIS_URL ?? testRedisUrl();
const context = new ServerCallContext({ tenant: 'bench', user: { isAuthenticated: true, userName: 'bench' } });

interface Result {
  store: string;
  operation: string;
  opsPerSec: number;
  p50: number;
  p99: number;
}

function task(i: number): Task {
  return Task.fromJSON({
    id: `bench-${i}`,
    contextId: `ctx-${i % 50}`,
    status: { state: 'TASK_STATE_WORKING', timestamp: new Date().toISOString() },
    history: [{ messageId: `m-${i}`, role: 'ROLE_USER', parts: [{ text: 'Summarise the quarterly report, please.' }] }],
    metadata: { agent: 'bench' },
  });
}

/** The task as a turn records it once the agent has answered. */
function answered(i: number): Task {
  const reply = Message.fromJSON({
    messageId: `r-${i}`,
    role: 'ROLE_AGENT',
    parts: [{ text: 'Here is the summary you asked for.' }],
  });
  const recorded = task(i);
  recorded.history.push(reply);
  return recorded;
}

/** Runs `operation` for 0..count-1 with `concurrency` in flight; returns throughput and latency percentiles (ms). */
async function measure(operation: (i: number) => Promise<unknown>): Promise<Omit<Result, 'store' | 'operation'>> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) {
        const begin = performance.now();
        await operation(i);
        latencies.push(performance.now() - begin);
      }
    }),
  );
  const elapsedSecs = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { opsPerSec: count / elapsedSecs, p50: percentile(50), p99: percentile(99) };
}

async function bench(name: string, store: TaskStore): Promise<Result[]> {
  const operations: [string, (i: number) => Promise<unknown>][] = [
    ['create', (i) => store.save(task(i), context)],
    ['record', (i) => store.saveUnlessEnded(answered(i), context)],
    [
      'load',
      async (i) => {
        if (!(await store.load(`bench-${i}`, context))) throw new Error(`bench-${i} missing`);
      },
    ],
  ];
  const results: Result[] = [];
  for (const [operation, run] of operations) results.push({ store: name, operation, ...(await measure(run)) });
  return results;
}

function print(results: Result[]): void {
  const rows = results.map((r) => [r.store, r.operation, r.opsPerSec.toFixed(0), r.p50.toFixed(2), r.p99.toFixed(2)]);
  const header = ['store', 'operation', 'ops/s', 'p50 ms', 'p99 ms'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join('  '));
}

async function main(): Promise<void> {
  const database = await createDatabase(uniqueName('switchboard_bench'));
  const prefix = testRedisPrefix().replace('sbtest', 'sbbench');
  let prisma: PrismaService | undefined;
  let redis: RedisService | undefined;
  try {
    await applyMigrations(database.url);
    prisma = connectPrisma(database.url);
    redis = connectRedis(prefix, redisUrl);
    console.log(`task store bench: ${count} tasks per store, ${concurrency} in flight, Node ${process.version}`);
    const results = [
      ...(await bench('postgres', new PostgresTaskStore(prisma))),
      ...(await truncated(prisma, () =>
        bench('postgres+redis', new CachedTaskStore(new PostgresTaskStore(prisma!), redis!)),
      )),
      ...(await bench('memory', new MemoryTaskStore())),
    ];
    print(results);
  } finally {
    await prisma?.onApplicationShutdown();
    await redis?.onApplicationShutdown();
    await deleteRedisKeys(prefix, redisUrl);
    await database.drop();
  }
}

async function truncated<T>(prisma: PrismaService, run: () => Promise<T>): Promise<T> {
  await prisma.$executeRaw`TRUNCATE tasks, push_configs`;
  return run();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
