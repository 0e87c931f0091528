/**
 * Concurrent SSE streams on one durable API process: opens `--streams` SubscribeToTask streams, one
 * per task, and reports Redis's connected clients before and after, the API's RSS and CPU per idle
 * stream, and how long one event takes to reach every stream.
 * Usage: npm run bench:streams -- [--streams 10000] [--idle 20]
 * The tasks stay `submitted`: no worker runs, and the bench publishes the event to each task's
 * stream itself, as a worker would. The API and Redis (a redis-server of the bench's own, so that
 * its client count is the API's alone) run on this machine; each side needs a file descriptor per
 * stream (`ulimit -n`).
 */
import { StreamResponse } from '@a2a-js/sdk';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { RedisTaskEventStream } from '../../src/tasks/events/redis-task-event-stream';
import { connectRedis } from '../../test/support/store-connections';
import { RedisProcess } from '../../test/support/redis-process';
import { applyMigrations, createDatabase, dropDatabase, uniqueName } from '../../test/support/test-database';
import { freePort } from '../../test/support/free-port';
import { ensureSwitchboardBuilt, SWITCHBOARD_BIN } from '../a2a/build';
import { cpuSeconds, registerCleanup, rssMb, shutdown, startNode, waitUntilReady } from '../a2a/processes';
import { type OpenStream, SseStreams } from './sse-streams';

const API_KEY = 'bench-key-0123456789abcdef';
const PREFIX = 'bench-streams:';
const CREATE_CONCURRENCY = 50;
const OPEN_CONCURRENCY = 200;

function options(): { streams: number; idleSecs: number } {
  const { values } = parseArgs({
    options: { streams: { type: 'string', default: '10000' }, idle: { type: 'string', default: '20' } },
  });
  const streams = Number(values.streams);
  const idleSecs = Number(values.idle);
  if (!Number.isInteger(streams) || streams <= 0 || !Number.isInteger(idleSecs) || idleSecs <= 0)
    throw new Error('--streams and --idle take positive integers');
  return { streams, idleSecs };
}

function openFilesLimit(): number {
  return Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 0);
}

async function redisClients(url: string): Promise<number> {
  const admin = new Redis(url);
  try {
    return Number(/connected_clients:(\d+)/.exec(await admin.info('clients'))![1]) - 1;
  } finally {
    admin.disconnect();
  }
}

async function rpc(baseUrl: string, method: string, params: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${API_KEY}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!answer.result) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

/** Runs `work` for 0..count-1 with `concurrency` at a time. */
async function inBatches<T>(count: number, concurrency: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) results[i] = await work(i);
    }),
  );
  return results;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

async function main(): Promise<void> {
  const { streams: count, idleSecs } = options();
  if (openFilesLimit() < count + 1_000)
    throw new Error(
      `each side needs a file descriptor per stream: raise the limit (ulimit -n ${2 * count}), it is ${openFilesLimit()}`,
    );
  await ensureSwitchboardBuilt();
  const redis = await RedisProcess.start();
  registerCleanup(() => redis.stop());
  const databaseName = uniqueName('switchboard_bench_streams');
  registerCleanup(() => dropDatabase(databaseName));
  const database = await createDatabase(databaseName);
  await applyMigrations(database.url);
  const port = await freePort();
  const api = startNode(
    'api',
    [SWITCHBOARD_BIN, 'serve'],
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      SWITCHBOARD_REDIS_PREFIX: PREFIX,
      SWITCHBOARD_WORKER_IN_API: 'false',
      SWITCHBOARD_API_KEYS: API_KEY,
      SWITCHBOARD_RATE_LIMIT: '100000000',
      SWITCHBOARD_MAX_CONNECTIONS: String(count + 1_000),
      LOG_LEVEL: 'warn',
    },
    mkdtempSync(join(tmpdir(), 'bench-streams-')),
  );
  registerCleanup(() => api.stop());
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilReady(`${baseUrl}/readyz`, [api]);
  console.log(
    `${new Date().toISOString()}: API up (pid ${api.pid}); creating ${count} tasks (non-blocking sends, no worker: they stay submitted)`,
  );

  const tasks = await inBatches(count, CREATE_CONCURRENCY, async () => {
    const { task } = (await rpc(baseUrl, 'SendMessage', {
      message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hold' }] },
      configuration: { returnImmediately: true },
    })) as {
      task: { id: string; contextId: string };
    };
    return { id: task.id, contextId: task.contextId };
  });
  const clientsBefore = await redisClients(redis.url);
  const rssBefore = rssMb(api.pid)!;

  const failures: Error[] = [];
  const sse = new SseStreams(`${baseUrl}/a2a`, { 'A2A-Version': '1.0', authorization: `Bearer ${API_KEY}` }, (error) =>
    failures.push(error),
  );
  const openedAt = Date.now();
  const streams: OpenStream[] = await inBatches(count, OPEN_CONCURRENCY, (i) =>
    sse.open({ jsonrpc: '2.0', id: i, method: 'SubscribeToTask', params: { id: tasks[i].id } }),
  );
  console.log(`${count} streams open in ${((Date.now() - openedAt) / 1000).toFixed(1)} s; idle for ${idleSecs} s`);

  const cpuAtIdle = cpuSeconds(api.pid);
  await new Promise((resolve) => setTimeout(resolve, idleSecs * 1_000));
  const idleCpu = cpuSeconds(api.pid) - cpuAtIdle;
  const rssOpen = rssMb(api.pid)!;
  const clientsOpen = await redisClients(redis.url);

  // One event on every task's stream, published as a worker does; timed until every stream has it.
  const publisher = connectRedis(PREFIX, redis.url);
  const events = new RedisTaskEventStream(publisher, 1_000);
  const publishedAt = Date.now();
  const received = Promise.all(streams.map((stream) => stream.until(2)));
  await Promise.all(
    tasks.map(({ id, contextId }) =>
      events.publish(id, [
        StreamResponse.fromJSON({ statusUpdate: { taskId: id, contextId, status: { state: 'TASK_STATE_WORKING' } } }),
      ]),
    ),
  );
  const publishMs = Date.now() - publishedAt;
  const latencies = (await received).map((at) => at - publishedAt).sort((a, b) => a - b);
  await publisher.onApplicationShutdown();

  for (const stream of streams) stream.close();
  if (failures.length > 0) throw new Error(`${failures.length} streams failed; first: ${failures[0].message}`);

  const perStreamKb = ((rssOpen - rssBefore) * 1024) / count;
  console.log(
    `\n## bench:streams, ${new Date().toISOString()}, ${count} SubscribeToTask streams on one durable API process`,
  );
  console.log(`| figure | value |\n| --- | --- |`);
  console.log(
    `| Redis connected clients (API), before / with ${count} streams open | ${clientsBefore} / ${clientsOpen} |`,
  );
  console.log(
    `| API RSS before / with the streams open | ${rssBefore.toFixed(0)} MB / ${rssOpen.toFixed(0)} MB (${perStreamKb.toFixed(1)} KB per stream) |`,
  );
  console.log(
    `| API CPU while the streams idle ${idleSecs} s | ${((idleCpu / idleSecs) * 100).toFixed(1)} % of a core (${((idleCpu * 1e6) / idleSecs / count).toFixed(2)} µs/s per stream) |`,
  );
  console.log(
    `| one event to every stream: all delivered / p50 / p99 (publishing took ${publishMs} ms) | ${latencies.at(-1)} ms / ${percentile(latencies, 50)} ms / ${percentile(latencies, 99)} ms |`,
  );
}

main()
  .catch((error: Error) => {
    console.error(error.message);
    process.exitCode = 1;
  })
  .finally(() => shutdown());
