import { TaskState } from '@a2a-js/sdk';
import { Client } from 'pg';
import { PostgresPushConfigStore } from '../../src/task-store/postgres-push-config-store';
import { PostgresTaskStore } from '../../src/task-store/postgres-task-store';
import { describeTaskStoreContract } from './contracts/task-store.contract';
import { callContext, makeTask } from './support/fixtures';
import { PostgresFixture } from './support/postgres-fixture';
import { connectPrisma } from '../support/store-connections';
import { eventually } from '../support/eventually';

async function aliveBackends(url: string, pids: number[]): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ alive: number }>(
      'SELECT count(*)::int AS alive FROM pg_stat_activity WHERE pid = ANY($1::int[])',
      [pids],
    );
    return rows[0].alive;
  } finally {
    await client.end();
  }
}

describeTaskStoreContract('postgres', async () => {
  const postgres = await PostgresFixture.create();
  return {
    fresh: async () => {
      await postgres.truncate();
      return {
        store: new PostgresTaskStore(postgres.prisma),
        pushConfigs: new PostgresPushConfigStore(postgres.prisma),
      };
    },
    close: () => postgres.close(),
  };
});

describe('PostgresTaskStore', () => {
  const hour = 3_600_000;
  let postgres: PostgresFixture;

  beforeAll(async () => {
    postgres = await PostgresFixture.create();
  });
  afterAll(() => postgres?.close());
  beforeEach(() => postgres.truncate());

  it('removes push configs whose task never appeared, once they are older than the TTL', async () => {
    const [store, pushConfigs, alice] = [
      new PostgresTaskStore(postgres.prisma),
      new PostgresPushConfigStore(postgres.prisma),
      callContext(),
    ];
    const hook = {
      tenant: '',
      id: 'hook',
      taskId: '',
      url: 'https://example.com/hook',
      token: '',
      authentication: undefined,
    };
    await store.save(makeTask('running'), alice);
    await pushConfigs.save('running', alice, { ...hook });
    await pushConfigs.save('never-created', alice, { ...hook });

    await store.applyRetention({ maxTasks: 10, ttlMs: hour });
    expect(await pushConfigs.load('never-created', alice)).toHaveLength(1);
    await store.applyRetention({ maxTasks: 10, ttlMs: hour, now: new Date(Date.now() + 2 * hour) });
    expect(await pushConfigs.load('never-created', alice)).toEqual([]);
    expect(await pushConfigs.load('running', alice)).toHaveLength(1);
  });

  it('keeps working when Postgres terminates its idle connections (a restart, an admin)', async () => {
    // A service whose only queries so far are the hot ones, which bypass Prisma's own pool handling.
    const service = connectPrisma(postgres.database.url);
    try {
      const store = new PostgresTaskStore(service);
      const alice = callContext();
      await store.save(makeTask('t1'), alice);
      const database = new URL(postgres.database.url).pathname.slice(1);
      const terminated = await postgres.prisma.$queryRaw<{ pid: number }[]>`
        SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = ${database} AND pid <> pg_backend_pid()`;
      expect(terminated.length).toBeGreaterThan(0);
      // pg_terminate_backend only signals: wait until the backends are gone (asking on a connection of its own).
      const pids = terminated.map(({ pid }) => pid);
      await eventually(
        () => aliveBackends(postgres.database.url, pids),
        (alive) => alive === 0,
      );
      expect((await store.load('t1', alice))?.id).toBe('t1');
    } finally {
      await service.onApplicationShutdown();
    }
  });

  it('stores and compares instants whatever the session time zone', async () => {
    const url = new URL(postgres.database.url);
    url.searchParams.set('options', '-c TimeZone=Asia/Tokyo');
    const tokyo = connectPrisma(url.toString());
    try {
      const store = new PostgresTaskStore(tokyo);
      const alice = callContext();
      await store.save(
        makeTask('t1', { state: TaskState.TASK_STATE_COMPLETED, timestamp: '2025-01-01T00:00:00.000Z' }),
        alice,
      );
      const [row] = await tokyo.$queryRaw<
        { epoch: number }[]
      >`SELECT extract(epoch FROM status_timestamp)::float8 AS epoch FROM tasks`;
      expect(row.epoch * 1000).toBe(Date.parse('2025-01-01T00:00:00.000Z'));

      expect(await store.applyRetention({ maxTasks: 10, ttlMs: hour, now: new Date(Date.now() + hour / 2) })).toBe(0);
      expect(await store.applyRetention({ maxTasks: 10, ttlMs: hour, now: new Date(Date.now() + 2 * hour) })).toBe(1);
    } finally {
      await tokyo.onApplicationShutdown();
    }
  });
});
