/**
 * A blocking send whose deadline passes before any worker took its turn is answered with its task,
 * recorded then as submitted. Postgres down at that moment: the send is refused with the retryable
 * 503 (not a 500), no task is stored, and its turn is taken back from the queue, so that the resend
 * the client is told to make does not find the first one run.
 */
import { Queue } from 'bullmq';
import { type ServiceProcess, ServiceProcesses } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { QueueName } from '../../src/queue/queue.constants';
import { writeConfigFile } from '../support/config-file';
import { PostgresProcess } from '../support/postgres-process';
import { applyMigrations, deleteRedisKeys, testRedisPrefix, testRedisUrl } from '../support/test-database';
import { jsonRpcSend, restSend, taskRows } from './support/store-outage-clients';

jest.setTimeout(120_000);

const config = `${TEST_AGENTS_TOML}
[a2a]
blocking_timeout_secs = 0.5
`;

describe('a blocking send past its deadline, no worker having taken its turn, while Postgres is down', () => {
  let postgres: PostgresProcess;
  let databaseUrl: string;
  const redisPrefix = testRedisPrefix();
  let services: ServiceProcesses;
  let api: ServiceProcess;

  beforeAll(async () => {
    postgres = await PostgresProcess.start();
    databaseUrl = await postgres.createDatabase('switchboard');
    await applyMigrations(databaseUrl);
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(config),
      DATABASE_URL: databaseUrl,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    api = await services.api('api'); // and no worker
  });

  afterAll(async () => {
    await services?.stopAll();
    await deleteRedisKeys(redisPrefix);
    await postgres?.destroy();
  });

  it('is refused with a retryable error, stores no task and takes its turn back from the queue', async () => {
    await postgres.stop();
    const [jsonRpc, rest] = await Promise.all([
      jsonRpcSend(api.baseUrl, 'echo', 'past the deadline'),
      restSend(api.baseUrl, 'echo', 'past the deadline'),
    ]);
    await postgres.restart();

    await services.explain(() => {
      expect(jsonRpc).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: { code: -32603, message: expect.stringContaining('temporarily unavailable') } },
      });
      expect(rest).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: { code: 503, message: expect.stringContaining('temporarily unavailable') } },
      });
    });
    expect(await taskRows(databaseUrl)).toEqual([]);
    const url = new URL(testRedisUrl());
    const queue = new Queue(QueueName.AgentTurns, {
      connection: { host: url.hostname, port: Number(url.port || 6379) },
      prefix: `${redisPrefix}bull`,
    });
    try {
      const { waiting, active, delayed, prioritized } = await queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'prioritized',
      );
      expect({ waiting, active, delayed, prioritized }).toEqual({ waiting: 0, active: 0, delayed: 0, prioritized: 0 });
    } finally {
      await queue.close();
    }
  });
});
