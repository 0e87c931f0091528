import { Task, TaskState } from '@a2a-js/sdk';
import { Logger } from '@nestjs/common';
import type { RedisService } from '../../src/redis/redis.service';
import { CachedTaskStore } from '../../src/task-store/cached-task-store';
import { PostgresPushConfigStore } from '../../src/task-store/postgres-push-config-store';
import { PostgresTaskStore } from '../../src/task-store/postgres-task-store';
import { attachEndpointAgents, attachTaskAgent } from '../../src/task-store/task-agent';
import { taskScope } from '../../src/task-store/task-scope';
import { TaskSnapshotCache } from '../../src/task-store/task-snapshot-cache';
import { deleteRedisKeys } from '../support/test-database';
import { describeTaskStoreContract } from './contracts/task-store.contract';
import { callContext, makeTask } from './support/fixtures';
import { PostgresFixture } from './support/postgres-fixture';
import { RedisNamespace } from '../support/store-connections';

describeTaskStoreContract('postgres + redis cache', async () => {
  const [postgres, namespace] = [await PostgresFixture.create(), new RedisNamespace()];
  const redis = namespace.connect();
  return {
    fresh: async () => {
      await Promise.all([postgres.truncate(), deleteRedisKeys(namespace.prefix)]);
      return {
        store: new CachedTaskStore(new PostgresTaskStore(postgres.prisma), redis),
        pushConfigs: new PostgresPushConfigStore(postgres.prisma),
      };
    },
    close: async () => {
      await Promise.all([postgres.close(), namespace.close()]);
    },
  };
});

describe('CachedTaskStore consistency', () => {
  const alice = callContext('alice');
  let postgres: PostgresFixture;
  let namespace: RedisNamespace;
  let redis: RedisService;
  let store: CachedTaskStore;
  let cache: TaskSnapshotCache;

  /** Changes the stored task behind the cache's back, to tell cached reads from database reads. */
  const rewriteInDatabase = (id: string, contextId: string) =>
    postgres.prisma
      .$executeRaw`UPDATE tasks SET data = jsonb_set(data, '{contextId}', to_jsonb(${contextId}::text)) WHERE id = ${id}`;

  beforeAll(async () => {
    postgres = await PostgresFixture.create();
    namespace = new RedisNamespace();
    redis = namespace.connect();
    cache = new TaskSnapshotCache(redis);
  });
  afterAll(async () => {
    await Promise.all([postgres?.close(), namespace?.close()]);
  });
  beforeEach(async () => {
    await Promise.all([postgres.truncate(), deleteRedisKeys(namespace.prefix)]);
    store = new CachedTaskStore(new PostgresTaskStore(postgres.prisma), redis);
  });

  it('serves loads from the cache once a task is written, and refreshes it on every write', async () => {
    await store.save(makeTask('t1'), alice);
    await rewriteInDatabase('t1', 'behind-the-cache');
    expect((await store.load('t1', alice))!.contextId).toBe('ctx-1');

    await store.saveUnlessEnded(makeTask('t1', { contextId: 'recorded' }), alice);
    await rewriteInDatabase('t1', 'behind-the-cache');
    expect((await store.load('t1', alice))!.contextId).toBe('recorded');
  });

  it('never lets an older snapshot replace a newer one', async () => {
    const scope = taskScope(alice);
    await store.save(makeTask('t1', { history: ['v1'] }), alice);
    await store.save(makeTask('t1', { history: ['v1', 'v2'] }), alice);
    // A reader that loaded version 1 before the second write finishes only now.
    await cache.put(scope, { task: makeTask('t1', { history: ['v1'] }), version: 1 });
    expect((await cache.get('t1'))!.version).toBe(2);
    expect((await store.load('t1', alice))!.history).toHaveLength(2);
  });

  it('fills the cache on a miss with the version it read', async () => {
    await new PostgresTaskStore(postgres.prisma).save(makeTask('t1'), alice);
    expect(await cache.get('t1')).toBeUndefined();
    await store.load('t1', alice);
    expect(await cache.get('t1')).toMatchObject({ version: 1, scope: taskScope(alice) });
  });

  it('does not serve a cached task to another scope', async () => {
    await store.save(makeTask('t1'), alice);
    expect(await store.load('t1', callContext('bob'))).toBeUndefined();
    expect(await store.load('t1', callContext('alice', 'globex'))).toBeUndefined();
  });

  it("reads a snapshot cached without the task's agent (by an earlier release) as missing: the agent's endpoint still finds its task", async () => {
    const ofEcho = callContext('alice');
    attachTaskAgent(ofEcho, 'echo');
    await store.save(makeTask('t1'), ofEcho);
    const snapshot = JSON.stringify({ ...taskScope(alice), task: Task.toJSON(makeTask('t1')) });
    await redis.client.hset(redis.key('task', 't1'), 's', snapshot);
    const atEcho = callContext('alice');
    attachEndpointAgents(atEcho, ['echo']);
    expect((await store.load('t1', atEcho))?.id).toBe('t1');
    const atSlow = callContext('alice');
    attachEndpointAgents(atSlow, ['slow']);
    expect(await store.load('t1', atSlow)).toBeUndefined();
  });

  it('forgets evicted tasks, and a read already under way cannot bring one back', async () => {
    await store.save(makeTask('t1', { state: TaskState.TASK_STATE_COMPLETED }), alice);
    const staleRead = (await cache.get('t1'))!;
    expect(await store.applyRetention({ maxTasks: 0, ttlMs: 3_600_000 })).toBe(1);
    expect(await store.load('t1', alice)).toBeUndefined();
    await cache.put(taskScope(alice), staleRead);
    expect(await store.load('t1', alice)).toBeUndefined();
  });

  it('falls back to Postgres when Redis is unreachable, and says so', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const broken = namespace.connect();
    broken.client.disconnect();
    const degraded = new CachedTaskStore(new PostgresTaskStore(postgres.prisma), broken);
    await degraded.save(makeTask('t1'), alice);
    expect((await degraded.load('t1', alice))?.id).toBe('t1');
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'read', err: 'Connection is closed.' }),
      'task cache unavailable',
    );
    warn.mockRestore();
  });
});
