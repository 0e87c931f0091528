import { Task } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, INestApplicationContext } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkerApp } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import type { SwitchboardConfig } from '../../src/config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../src/queue/job-queue.interface';
import { OnJob } from '../../src/queue/on-job.decorator';
import { agentTurnJobId } from '../../src/queue/agent-turn-job-id';
import { JobName, QueueName } from '../../src/queue/queue.constants';
import { QueueModule } from '../../src/queue/queue.module';
import { TASK_STORE, TaskStore } from '../../src/task-store/task-store.interface';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import { startTestApp, testConfig } from '../support/test-app';
import { createTestDatabase, deleteRedisKeys, testRedisPrefix, testRedisUrl } from '../support/test-database';

const context = new ServerCallContext();

function configFile(toml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'switchboard-queue-')), 'switchboard.toml');
  writeFileSync(file, toml);
  return file;
}

function task(id: string, state: string): Task {
  return Task.fromJSON({ id, contextId: 'ctx', status: { state, timestamp: new Date().toISOString() } });
}

/** Seeds a finished and a running task, one more than the cap of 1, then runs retention through the queue. */
async function expectRetentionThroughQueue(
  api: INestApplicationContext,
  runWorker: () => Promise<void>,
): Promise<void> {
  const store = api.get<TaskStore>(TASK_STORE);
  await store.save(task('finished', 'TASK_STATE_COMPLETED'), context);
  await store.save(task('running', 'TASK_STATE_WORKING'), context);

  await api.get<JobQueue>(JOB_QUEUE).enqueue(JobName.TaskRetention, {});
  await runWorker();

  await eventually(
    () => store.load('finished', context),
    (loaded) => loaded === undefined,
  );
  expect(await store.load('running', context)).toBeDefined();
}

describe('job queue', () => {
  // Over the cap rather than past a TTL: eviction is then due at once, with no time to let pass.
  const retentionToml = '[tasks]\nmax_tasks = 1\nretention_interval_secs = 3600\n';

  describe('durable (BullMQ): an API process enqueues, a separate worker process runs the job', () => {
    let database: { url: string; drop(): Promise<void> };
    let api: NestFastifyApplication;
    let worker: INestApplicationContext | undefined;
    let config: SwitchboardConfig;
    const prefix = testRedisPrefix();

    beforeAll(async () => {
      database = await createTestDatabase();
      config = testConfig({
        SWITCHBOARD_CONFIG: configFile(retentionToml),
        DATABASE_URL: database.url,
        REDIS_URL: testRedisUrl(),
        SWITCHBOARD_REDIS_PREFIX: prefix,
        SWITCHBOARD_WORKER_IN_API: 'false',
      });
      ({ app: api } = await startTestApp(config));
    });

    afterAll(async () => {
      await worker?.close();
      await api?.close();
      await database?.drop();
      await deleteRedisKeys(prefix);
    });

    it('queues a turn once however often it is enqueued, and tells while it is pending', async () => {
      const queue = api.get<JobQueue>(JOB_QUEUE);
      const taskId = randomUUID();
      const request = { message: { messageId: 'm1', taskId, role: 'ROLE_USER', parts: [{ text: 'once' }] } };
      const payload = {
        agent: 'echo',
        taskId,
        contextId: 'ctx',
        request,
        caller: { tenant: '', userName: 'tester', authenticated: true },
        announced: false,
      };
      const jobId = agentTurnJobId(taskId, 'm1');
      expect(await queue.isPending(JobName.AgentTurn, jobId)).toBe(false);
      await queue.enqueue(JobName.AgentTurn, payload, { jobId });
      await queue.enqueue(JobName.AgentTurn, payload, { jobId });
      expect((await queue.counts())['agent-turns'].waiting).toBe(1);
      expect(await queue.isPending(JobName.AgentTurn, jobId)).toBe(true);
      expect(await queue.isPending(JobName.AgentTurn, agentTurnJobId(taskId, 'm2'))).toBe(false);
    });

    it('takes back a job no worker has taken', async () => {
      const queue = api.get<JobQueue>(JOB_QUEUE);
      const jobId = 'withdrawn-retention';
      await queue.enqueue(JobName.TaskRetention, {}, { jobId });
      expect(await queue.isPending(JobName.TaskRetention, jobId)).toBe(true);
      expect(await queue.withdraw(JobName.TaskRetention, jobId)).toBe(true);
      expect(await queue.isPending(JobName.TaskRetention, jobId)).toBe(false);
      expect(await queue.withdraw(JobName.TaskRetention, jobId)).toBe(true);
    });

    it('leaves the job waiting until a worker runs it', async () => {
      await expectRetentionThroughQueue(api, async () => {
        // No worker anywhere listens on the queue, so the job cannot have run yet nor run until one starts.
        expect(await api.get<Queue>(getQueueToken(QueueName.Maintenance)).getWorkersCount()).toBe(0);
        const counts = await api.get<JobQueue>(JOB_QUEUE).counts();
        expect(counts.maintenance.waiting).toBeGreaterThanOrEqual(1);
        expect(await api.get<TaskStore>(TASK_STORE).load('finished', context)).toBeDefined();
        worker = await createWorkerApp(config);
        await worker.init();
      });
    });
  });

  describe('durable, while Redis is unreachable', () => {
    let redis: RedisProcess;
    let database: { url: string; drop(): Promise<void> };
    let api: NestFastifyApplication;

    beforeAll(async () => {
      [redis, database] = await Promise.all([RedisProcess.start(), createTestDatabase()]);
      const config = testConfig({
        DATABASE_URL: database.url,
        REDIS_URL: redis.url,
        SWITCHBOARD_REDIS_PREFIX: testRedisPrefix(),
        SWITCHBOARD_WORKER_IN_API: 'false',
      });
      ({ app: api } = await startTestApp(config));
    });

    afterAll(async () => {
      await api?.close();
      await redis?.stop();
      await database?.drop();
    });

    it('says it cannot take a job without a round trip, then that it can once Redis is back', async () => {
      const queue = api.get<JobQueue>(JOB_QUEUE);
      expect(queue.isReachable(JobName.AgentTurn)).toBe(true);
      await redis.stop();
      await eventually(
        async () => queue.isReachable(JobName.AgentTurn),
        (reachable) => !reachable,
      );

      await redis.restart();
      await eventually(async () => queue.isReachable(JobName.AgentTurn), Boolean);
      await queue.enqueue(JobName.TaskRetention, {});
      expect((await queue.counts()).maintenance.waiting).toBe(1);
    });
  });

  describe('embedded: jobs run in-process', () => {
    let api: NestFastifyApplication;

    beforeAll(async () => {
      ({ app: api } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: configFile(retentionToml) })));
    });

    afterAll(() => api?.close());

    it('runs the retention job', async () => {
      await expectRetentionThroughQueue(api, async () => undefined);
    });
  });

  describe('job handler discovery', () => {
    @Injectable()
    class SecondRetentionHandler {
      @OnJob(JobName.TaskRetention)
      async run() {
        return undefined;
      }
    }

    it('refuses to boot when a job has two handlers', async () => {
      const module = Test.createTestingModule({
        imports: [AppModule.forRoot(testConfig(), 'api')],
        providers: [SecondRetentionHandler],
      });
      await expect(module.compile().then((m) => m.init())).rejects.toThrow(
        /Job "task-retention" has two handlers: (TaskRetentionJob\.run and SecondRetentionHandler\.run|SecondRetentionHandler\.run and TaskRetentionJob\.run)/,
      );
    });

    it('refuses to boot when a job has no handler', async () => {
      const config = testConfig();
      const module = Test.createTestingModule({
        imports: [
          ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
          QueueModule.forRoot({ tasks: 'memory', shared: 'memory' }, true, config.queue),
        ],
      });
      await expect(module.compile().then((m) => m.init())).rejects.toThrow(
        /No handler for job\(s\) task-retention, orphaned-task-sweep, agent-turn, push-delivery, audit-retention: mark one/,
      );
    });
  });
});
