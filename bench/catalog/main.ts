/**
 * How fast a catalog change reaches another replica: Switchboard durable with two API replicas and a
 * worker; `--changes` times, a key is created through replica A's admin API, then deleted. From A's
 * answer, replica B is asked (an authenticated GetTask of an unknown task, every millisecond) until it
 * accepts the new key (200), and after the delete until it refuses it (401). Target: under 2 s.
 * Usage: npm run bench:catalog -- [--changes 100]
 */
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { ensureSwitchboardBuilt } from '../a2a/build';
import { runBench, sampleUsage } from '../a2a/processes';
import { BENCH_API_KEY, startDurable } from '../a2a/servers';

/** The bench's key (a bare key, so named `key-1`) may use the admin API. */
const ADMIN_RULE = '[[auth.rules]]\nkeys = ["key-1"]\nadmin = true\n';
const GET_UNKNOWN_TASK = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'bench-none' } });
const TARGET_MS = 2_000;
const GIVE_UP_MS = 10_000;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { changes: { type: 'string', default: '100' } } });
  const changes = Number(values.changes);
  console.log(
    `Catalog bench: ${changes} keys created on replica A and deleted, timed until replica B agrees; Node ${process.version}, ${availableParallelism()} cores`,
  );
  await ensureSwitchboardBuilt();
  const server = await startDurable([], { apis: 2, workers: 1, config: ADMIN_RULE });
  const [a, b] = server.replicaUrls!;
  const usage = sampleUsage(server.processes);
  const admin = { authorization: `Bearer ${BENCH_API_KEY}`, 'content-type': 'application/json' };
  const accepted = async (key: string) =>
    (
      await fetch(`${b}/a2a`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'a2a-version': '1.0' },
        body: GET_UNKNOWN_TASK,
      })
    ).status;
  const until = async (key: string, status: number): Promise<number> => {
    const start = performance.now();
    while ((await accepted(key)) !== status) {
      if (performance.now() - start > GIVE_UP_MS)
        throw new Error(`replica B did not answer ${status} within ${GIVE_UP_MS} ms`);
      await new Promise((done) => setTimeout(done, 1));
    }
    return performance.now() - start;
  };
  const added: number[] = [];
  const removed: number[] = [];
  for (let index = 0; index < changes; index++) {
    const name = `bench-${index}`;
    const created = await fetch(`${a}/api/admin/keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ name }),
    });
    if (created.status !== 201) throw new Error(`creating a key answered ${created.status}: ${await created.text()}`);
    const { key } = (await created.json()) as { key: string };
    added.push(await until(key, 200));
    const deleted = await fetch(`${a}/api/admin/keys/${name}`, { method: 'DELETE', headers: admin });
    if (deleted.status !== 204) throw new Error(`deleting a key answered ${deleted.status}`);
    removed.push(await until(key, 401));
  }
  const samples = usage();
  await server.stop();
  for (const [what, times] of [
    ['created, accepted on B', added],
    ['deleted, refused on B', removed],
  ] as const) {
    const sorted = [...times].sort((x, y) => x - y);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    const verdict = at(0.99) < TARGET_MS ? 'meets' : 'MISSES';
    console.log(
      `${what}: p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms (${verdict} the ${TARGET_MS} ms target)`,
    );
  }
  for (const [name, { peakRssMb, cpuSeconds }] of samples)
    console.log(`${name}: peak RSS ${peakRssMb.toFixed(0)} MB, CPU ${cpuSeconds.toFixed(2)} s`);
}

runBench(main);
