/**
 * The per-request budget of a durable blocking SendMessage: round trips to Postgres and Redis per
 * process (through counting proxies), the Redis commands (MONITOR, by this run's key prefix) and the
 * SQL statements (`log_statement = all` on this run's database only, read back from the server log)
 * of one request, and the CPU each process spends on it. Requests are sent one at a time so that
 * nothing is batched; the same wall time idle is measured and subtracted (BullMQ's and the stream
 * readers' background polling).
 * Usage: npm run bench:budget -- [--requests 200] [--postgres-log /var/log/postgresql/postgresql-15-main.log]
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { Client } from 'pg';
import { adminDatabaseUrl } from '../../test/support/test-database';
import { ensureSwitchboardBuilt } from './build';
import { verifyAnswer } from './load';
import { sampleUsage, shutdown } from './processes';
import { difference, type RoundTripCounts, RoundTripProxy } from './round-trip-proxy';
import { BENCH_API_KEY, type RunningServer, startDurable } from './servers';

const WARM_UP_REQUESTS = 30;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function countInto(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

async function sendOne(server: RunningServer): Promise<void> {
  const response = await fetch(`${server.baseUrl}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', authorization: `Bearer ${BENCH_API_KEY}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hello bench' }] } },
    }),
  });
  const text = await response.text();
  if (!text.includes('TASK_STATE_COMPLETED')) throw new Error(`not completed: ${text.slice(0, 300)}`);
}

/** Redis commands from this run's processes, by process and command name (EVALSHA named by its first key's kind). */
function monitorRedis(proxies: RoundTripProxy[]): {
  counts: Map<string, number>;
  ready: Promise<void>;
  stop: () => Promise<void>;
} {
  const counts = new Map<string, number>();
  const monitor = new Redis('redis://127.0.0.1:6379', { lazyConnect: true });
  let listening = true;
  const owner = (port: number) => proxies.find((proxy) => proxy.upstreamPorts.has(port))?.name;
  // MONITOR takes a connection of its own: ioredis opens it, and it is the one to close.
  const feeding = monitor.monitor().then((feed) => {
    feed.on('monitor', (_time: string, args: string[], source: string) => {
      if (!listening) return;
      const port = Number(/:(\d+)$/.exec(source)?.[1]);
      const name = owner(port);
      if (!name) return;
      const command = args[0].toUpperCase();
      // BullMQ's scripts: which queue key they touch tells them apart better than the SHA.
      const key =
        command === 'EVALSHA' || command === 'EVAL'
          ? ` ${(args[3] ?? '').replace(/^.*:bull:[^:]+:/, '').replace(/^\{.*\}:/, 'ratelimit:')}`
          : '';
      countInto(counts, `${name} ${command}${key.replace(UUID, '<id>')}`);
    });
    return feed;
  });
  return {
    counts,
    ready: feeding.then(() => undefined),
    stop: async () => {
      listening = false;
      (await feeding).disconnect();
    },
  };
}

function readFrom(file: string, offset: number): string {
  const size = statSync(file).size;
  const buffer = Buffer.alloc(size - offset);
  const fd = openSync(file, 'r');
  readSync(fd, buffer, 0, buffer.length, offset);
  closeSync(fd);
  return buffer.toString();
}

/** The statements logged for `database` in the server log since `offset`, by their first words. */
function statements(log: string, database: string): Map<string, number> {
  const counts = new Map<string, number>();
  const marker = `@${database} LOG:  `;
  const lines = log.split('\n');
  lines.forEach((line, index) => {
    const at = line.indexOf(marker);
    if (at < 0) return;
    let text = line.slice(at + marker.length).replace(/^(statement|execute [^:]*): /, '');
    // A statement that starts with a line break goes on in the log's next, tab-indented lines.
    for (let next = index + 1; text.trim() === '' && lines[next]?.startsWith('\t'); next++) text += lines[next];
    countInto(counts, text.replace(/\s+/g, ' ').trim().replace(/\$\d+/g, '?').slice(0, 90));
  });
  return counts;
}

function perRequest(value: number, idle: number, requests: number): string {
  return ((value - idle) / requests).toFixed(2);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '200' },
      'postgres-log': { type: 'string', default: '/var/log/postgresql/postgresql-15-main.log' },
    },
  });
  const requests = Number(values.requests);
  const postgresLog = values['postgres-log']!;
  await ensureSwitchboardBuilt();
  const proxies: RoundTripProxy[] = [];
  const proxied = async (name: string, url: string) => {
    const proxy = await RoundTripProxy.start(name, url);
    proxies.push(proxy);
    return proxy.rewrite(url);
  };
  // Proxies are made before the processes start, one per process and service.
  const databaseUrl = new URL(adminDatabaseUrl());
  const urls = new Map<string, { databaseUrl: string; redisUrl: string }>();
  for (const name of ['durable api', 'durable worker']) {
    urls.set(name, {
      databaseUrl: await proxied(`${name} postgres`, databaseUrl.toString()),
      redisUrl: await proxied(`${name} redis`, 'redis://127.0.0.1:6379'),
    });
  }
  let databaseName = '';
  const server = await startDurable([], {
    apis: 1,
    workers: 1,
    prepare: async (name) => {
      databaseName = name;
      const admin = new Client({ connectionString: adminDatabaseUrl() });
      await admin.connect();
      await admin.query(`ALTER DATABASE "${name}" SET log_statement = 'all'`);
      await admin.end();
    },
    urlsFor: (name, real) => {
      const mine = urls.get(name)!;
      const path = new URL(real.databaseUrl).pathname;
      const database = new URL(mine.databaseUrl);
      database.pathname = path;
      return { databaseUrl: database.toString(), redisUrl: mine.redisUrl };
    },
  });
  try {
    await verifyAnswer(server);
    for (let i = 0; i < WARM_UP_REQUESTS; i++) await sendOne(server);

    const snapshot = () => new Map(proxies.map((proxy) => [proxy.name, proxy.snapshot()]));
    const diff = (after: Map<string, RoundTripCounts>, before: Map<string, RoundTripCounts>) =>
      new Map([...after].map(([name, counts]) => [name, difference(counts, before.get(name)!)]));

    // The requests first, then as long idle: the background the request figures are corrected by.
    const loadMonitor = monitorRedis(proxies);
    await loadMonitor.ready;
    const loadStart = snapshot();
    const loadUsage = sampleUsage(server.processes);
    const started = Date.now();
    const logOffset = statSync(postgresLog).size;
    for (let i = 0; i < requests; i++) await sendOne(server);
    const loadMs = Date.now() - started;
    const loaded = diff(snapshot(), loadStart);
    const loadedCpu = loadUsage();
    await loadMonitor.stop();
    const loadedCommands = loadMonitor.counts;
    const loadedStatements = statements(readFrom(postgresLog, logOffset), databaseName);

    const quietMonitor = monitorRedis(proxies);
    await quietMonitor.ready;
    const quietStart = snapshot();
    const quietUsage = sampleUsage(server.processes);
    const quietLogOffset = statSync(postgresLog).size;
    await new Promise((resolve) => setTimeout(resolve, loadMs));
    const idle = diff(snapshot(), quietStart);
    const idleCpu = quietUsage();
    await quietMonitor.stop();
    const idleStatements = statements(readFrom(postgresLog, quietLogOffset), databaseName);

    console.log(
      `\nper request (${requests} sequential blocking SendMessage, ${loadMs} ms; idle background of the same length subtracted)\n`,
    );
    console.log('round trips and bytes per request, by process and service:');
    for (const [name, counts] of loaded) {
      const quiet = idle.get(name)!;
      console.log(
        `  ${name.padEnd(24)} ${perRequest(counts.roundTrips, quiet.roundTrips, requests).padStart(6)} round trips  ` +
          `${perRequest(counts.bytesToServer, quiet.bytesToServer, requests).padStart(8)} B out  ${perRequest(counts.bytesToClient, quiet.bytesToClient, requests).padStart(8)} B in` +
          `   (idle: ${((1000 * quiet.roundTrips) / loadMs).toFixed(1)} round trips/s)`,
      );
    }
    console.log('\nCPU ms per request (unloaded, one at a time), by process:');
    for (const [name, usage] of loadedCpu) {
      const quiet = idleCpu.get(name)!;
      console.log(`  ${name.padEnd(24)} ${((1000 * (usage.cpuSeconds - quiet.cpuSeconds)) / requests).toFixed(2)}`);
    }
    console.log('\nRedis commands per request (MONITOR; commands inside MULTI and pipelines counted one by one):');
    for (const [command, count] of [...loadedCommands].sort((a, b) => b[1] - a[1])) {
      const quiet = quietMonitor.counts.get(command) ?? 0;
      const net = (count - quiet) / requests;
      if (Math.abs(net) >= 0.01)
        console.log(`  ${net.toFixed(2).padStart(6)}  ${command}${quiet ? `  (idle ${quiet})` : ''}`);
    }
    console.log('\nSQL statements per request (both processes; log_statement = all on this database):');
    for (const [text, count] of [...loadedStatements].sort((a, b) => b[1] - a[1])) {
      const net = (count - (idleStatements.get(text) ?? 0)) / requests;
      if (Math.abs(net) >= 0.01) console.log(`  ${net.toFixed(2).padStart(6)}  ${text}`);
    }
  } finally {
    await server.stop();
    await Promise.all(proxies.map((proxy) => proxy.close()));
  }
}

main()
  .catch((error: Error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(shutdown);
