/**
 * The operator's view across real processes: an API (`switchboard serve`, no in-process workers) and
 * a worker (`switchboard worker`) on the real Postgres and Redis. Both announce themselves, and a
 * turn run on the worker reaches the API's live change feed and the operator's task list.
 */
import { type ServiceProcess, ServiceProcesses } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { TEST_API_KEY } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { adminCall, SseReader, sendMessage } from './support/admin-client';

const OPS_KEY = 'ops-key-0123456789abcdef';

describe('operator view across API and worker processes', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let services: ServiceProcesses;
  let api: ServiceProcess;
  let worker: ServiceProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(`[[auth.rules]]\nkeys = ["ops"]\nadmin = true\n${TEST_AGENTS_TOML}`),
      SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY},ops=${OPS_KEY}`,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    [api, worker] = await Promise.all([services.api('api'), services.worker('worker')]);
  });

  afterAll(async () => {
    await services?.stopAll();
    await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('lists the API and the worker as alive, each with its role, pid and host', async () => {
    const { body } = await eventually(
      () => adminCall(api.baseUrl, '/api/admin/overview', { key: OPS_KEY }),
      ({ body }) => body.processes?.length === 2,
    );
    expect(
      body.processes
        .map(({ role, pid }: { role: string; pid: number }) => ({ role, pid }))
        .sort((a: { role: string }, b: { role: string }) => a.role.localeCompare(b.role)),
    ).toEqual([
      { role: 'api', pid: api.pid },
      { role: 'worker', pid: worker.pid },
    ]);
    for (const info of body.processes)
      expect(info).toEqual({
        id: expect.any(String),
        role: info.role,
        host: expect.any(String),
        pid: info.pid,
        version: expect.any(String),
        startedAt: expect.any(String),
        lastSeenAt: expect.any(String),
      });
  });

  it("hears on the API's change feed a turn the worker ran, and lists its task with its agent", async () => {
    const changes = await SseReader.open(`${api.baseUrl}/api/admin/tasks/changes`, {
      authorization: `Bearer ${OPS_KEY}`,
    });
    try {
      const task = await sendMessage(api.baseUrl, 'echo', TEST_API_KEY, 'across');
      expect(task.status.state).toBe('TASK_STATE_COMPLETED');
      expect(
        await changes.next((data) => data.taskId === task.id && data.state === 'TASK_STATE_COMPLETED'),
      ).toMatchObject({
        agent: 'echo',
        owner: 'tester',
      });
      const { body } = await adminCall(api.baseUrl, '/api/admin/tasks?agent=echo', { key: OPS_KEY });
      expect(body.tasks).toEqual([
        expect.objectContaining({ id: task.id, agent: 'echo', owner: 'tester', state: 'TASK_STATE_COMPLETED' }),
      ]);
    } finally {
      changes.close();
    }
  });

  it('drops a process that stops from the list', async () => {
    await worker.stop();
    const { body } = await eventually(
      () => adminCall(api.baseUrl, '/api/admin/overview', { key: OPS_KEY }),
      ({ body }) => body.processes?.length === 1,
    );
    expect(body.processes[0]).toMatchObject({ role: 'api', pid: api.pid });
  });
});
