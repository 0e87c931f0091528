/**
 * A turn reads its task's webhooks once, not for every batch of events, and again only when one is
 * set mid-turn (announced through Redis, as from another replica); a new task's turn whose send
 * registered none does not read them at all, unless a client could have set one before the turn
 * began (a blocking send answered at its deadline). On Postgres and Redis, through the SDK client,
 * with webhooks that receive for real.
 */
import { SendMessageConfiguration, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import type { PushNotificationStore } from '@a2a-js/sdk/server';
import type { INestApplicationContext } from '@nestjs/common';
import { TaskEventBusManager } from '../../../src/a2a-server/task-event-bus.manager';
import { createWorkerApp } from '../../../src/app.factory';
import { PUSH_CONFIG_CHANGES, type PushConfigChanges } from '../../../src/tasks/push/push-config-changes.interface';
import { PUSH_CONFIGS } from '../../../src/tasks/push/push-configs.token';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeConfigFile } from '../../support/config-file';
import { PostgresProcess } from '../../support/postgres-process';
import { startTestApp, testConfig } from '../../support/test-app';
import { applyMigrations, deleteRedisKeys, testRedisPrefix, testRedisUrl } from '../../support/test-database';
import { eventually } from '../../support/eventually';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { type DurableTestApp, startDurableTestApp } from '../../support/durable-test-app';
import { asTask, collect, sdkClient, userMessage } from '../../support/sdk-client';
import { TEST_AGENTS_TOML } from '../../support/test-agents';

interface Notification {
  statusUpdate?: { status?: { state?: string } };
  artifactUpdate?: unknown;
}

const received = (webhook: WebhookReceiver<Notification>, token: string) =>
  webhook.received.filter(({ headers }) => headers['x-a2a-notification-token'] === token).map(({ body }) => body);
const states = (webhook: WebhookReceiver<Notification>, token: string) =>
  received(webhook, token).flatMap((n) => (n.statusUpdate?.status?.state ? [n.statusUpdate.status.state] : []));

describe("a turn's webhooks", () => {
  let service: DurableTestApp;
  let webhook: WebhookReceiver<Notification>;
  let reads: jest.SpyInstance;

  beforeAll(async () => {
    webhook = await WebhookReceiver.start();
    service = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(`[outbound]\nallow_hosts = ["127.0.0.1"]\n${TEST_AGENTS_TOML}`),
    });
    reads = jest.spyOn(service.app.get<PushNotificationStore>(PUSH_CONFIGS), 'loadWithMetadata' as never);
  });

  afterAll(async () => {
    await service?.close();
    webhook?.close();
  });

  const readsOf = (taskId: string) => reads.mock.calls.filter(([id]) => id === taskId).length;

  /** Streams a send to the `slow` agent up to its first artifact; returns the task's id and the rest of the stream. */
  const streamToFirstArtifact = async (send: ReturnType<typeof userMessage>) => {
    const client = await sdkClient(service.url, 'slow', 'JSONRPC');
    const stream = client.sendMessageStream(send)[Symbol.asyncIterator]();
    let taskId = '';
    for (
      let next = await stream.next();
      !next.done && next.value.payload?.$case !== 'artifactUpdate';
      next = await stream.next()
    ) {
      if (next.value.payload?.$case === 'task') taskId = next.value.payload.value.id;
    }
    return {
      client,
      taskId,
      drain: async () => {
        for (let next = await stream.next(); !next.done; next = await stream.next());
      },
    };
  };

  // The process's first turn: its subscription to changes coming up is no change.
  it('of a new task whose send registered none are not read, until one is set mid-turn', async () => {
    const { client, taskId, drain } = await streamToFirstArtifact(userMessage('one two three four five'));
    expect(readsOf(taskId)).toBe(0);

    await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'mid',
      taskId,
      url: webhook.url,
      token: 'mid',
      authentication: undefined,
    });
    await drain();
    await eventually(
      async () => states(webhook, 'mid'),
      (seen) => seen.includes('TASK_STATE_COMPLETED'),
    );
    expect(readsOf(taskId)).toBe(1);
  });

  it('are read once for the turn, and again after one is set mid-turn', async () => {
    const send = userMessage('one two three four five');
    send.configuration = SendMessageConfiguration.fromJSON({
      taskPushNotificationConfig: { url: webhook.url, token: 'first' },
    });
    const { client, taskId, drain } = await streamToFirstArtifact(send);
    expect(readsOf(taskId)).toBe(1);

    await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'late',
      taskId,
      url: webhook.url,
      token: 'late',
      authentication: undefined,
    });
    await drain();
    // Deliveries run concurrently: the last artifact may arrive after the completion.
    const delivered = () => ({
      ended: [...states(webhook, 'first'), ...states(webhook, 'late')].filter(
        (state) => state === 'TASK_STATE_COMPLETED',
      ).length,
      artifacts: received(webhook, 'first').filter((n) => n.artifactUpdate).length,
    });
    await eventually(
      async () => delivered(),
      ({ ended, artifacts }) => ended === 2 && artifacts === 5,
    );
    // The slow agent records its five chunks in batches of their own: read for each, that would be six reads or more.
    expect(readsOf(taskId)).toBe(2);
  });
});

describe('a streaming send whose webhook cannot be stored (Postgres down)', () => {
  let postgres: PostgresProcess;
  let app: NestFastifyApplication;
  let url: string;
  const prefix = testRedisPrefix();

  beforeAll(async () => {
    postgres = await PostgresProcess.start();
    const databaseUrl = await postgres.createDatabase('switchboard');
    await applyMigrations(databaseUrl);
    const config = writeConfigFile(`[outbound]\nallow_hosts = ["127.0.0.1"]\n${TEST_AGENTS_TOML}`);
    ({ app, url } = await startTestApp(
      testConfig({
        SWITCHBOARD_CONFIG: config,
        DATABASE_URL: databaseUrl,
        REDIS_URL: testRedisUrl(),
        SWITCHBOARD_REDIS_PREFIX: prefix,
      }),
    ));
  });

  afterAll(async () => {
    await app?.close();
    await deleteRedisKeys(prefix);
    await postgres?.destroy();
  });

  it('fails, and leaves the request following no task', async () => {
    // The SDK stores the webhook before it runs the executor, which tells the send's bus where its turn begins.
    await postgres.stop();
    const client = await sdkClient(url, 'echo', 'JSONRPC');
    const send = userMessage('never sent');
    send.configuration = SendMessageConfiguration.fromJSON({
      taskPushNotificationConfig: { url: 'http://127.0.0.1:9/hook', token: 'never' },
    });
    await expect(collect(client.sendMessageStream(send))).rejects.toThrow();
    expect(await app.get(TaskEventBusManager).drain(0)).toBe(true);
  });
});

// The API decides the deadline, and the job carries it: a worker whose own config says otherwise (a
// rolling change of blocking_timeout_secs) would, guessing from it, not look for webhooks yet.
describe.each([
  { worker: 'the same config as the API', workerBlockingSecs: 0.5 },
  { worker: 'a longer blocking timeout than the API', workerBlockingSecs: 600 },
])(
  "the webhooks of a new task's turn that begins after its send's deadline, on a worker with $worker",
  ({ workerBlockingSecs }) => {
    let service: DurableTestApp;
    let worker: INestApplicationContext | undefined;
    let webhook: WebhookReceiver<Notification>;

    beforeAll(async () => {
      webhook = await WebhookReceiver.start();
      const config = `[outbound]\nallow_hosts = ["127.0.0.1"]\n[a2a]\nblocking_timeout_secs = 0.5\n${TEST_AGENTS_TOML}`;
      service = await startDurableTestApp({
        SWITCHBOARD_CONFIG: writeConfigFile(config),
        SWITCHBOARD_WORKER_IN_API: 'false',
      });
    });

    afterAll(async () => {
      await worker?.close();
      await service?.close();
      webhook?.close();
    });

    it('are read: its client knew the task, and may have set one', async () => {
      const client = await sdkClient(service.url, 'echo', 'JSONRPC');
      const task = asTask(await client.sendMessage(userMessage('nobody is working yet')));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
      await client.createTaskPushNotificationConfig({
        tenant: '',
        id: 'early',
        taskId: task.id,
        url: webhook.url,
        token: 'early',
        authentication: undefined,
      });

      worker = await createWorkerApp({
        ...service.config,
        a2a: { ...service.config.a2a, blocking_timeout_secs: workerBlockingSecs },
      });
      // Subscribed to changes before the turn, as a worker that has run turns before is.
      (await worker.get<PushConfigChanges>(PUSH_CONFIG_CHANGES).watch('another-task')).dispose();
      await worker.init();
      await eventually(
        async () => states(webhook, 'early'),
        (seen) => seen.includes('TASK_STATE_COMPLETED'),
      );
    });
  },
);

describe("a task's webhook deliveries", () => {
  let service: DurableTestApp;
  let webhook: WebhookReceiver<
    Record<string, { status?: { state?: string }; artifact?: { parts: { text?: string }[] } }>
  >;

  beforeAll(async () => {
    // The receiver refuses the first delivery: it is tried again while the turn goes on.
    webhook = await WebhookReceiver.start({ refuseFirst: 1 });
    const config = `[outbound]\nallow_hosts = ["127.0.0.1"]\n[a2a.push]\nbackoff_ms = 200\n${TEST_AGENTS_TOML}`;
    service = await startDurableTestApp({ SWITCHBOARD_CONFIG: writeConfigFile(config) });
  });

  afterAll(async () => {
    await service?.close();
    webhook?.close();
  });

  it("reach the receiver in the order of the task's events, even when one of them had to be tried again", async () => {
    const send = userMessage('one two three four five');
    send.configuration = SendMessageConfiguration.fromJSON({
      taskPushNotificationConfig: { url: webhook.url, token: 'ordered' },
    });
    const streamed = (await collect((await sdkClient(service.url, 'slow', 'JSONRPC')).sendMessageStream(send))).map(
      ({ payload }) => {
        if (payload?.$case === 'statusUpdate') return `status ${taskStateToJSON(payload.value.status!.state)}`;
        if (payload?.$case === 'artifactUpdate')
          return `artifact ${payload.value.artifact!.parts.map((part) => part.content?.value).join('')}`;
        return payload?.$case;
      },
    );
    await eventually(
      async () => webhook.received.length,
      (count) => count >= streamed.length,
      20_000,
    );
    const delivered = webhook.received.map(({ body }) => {
      if (body.statusUpdate) return `status ${body.statusUpdate.status?.state}`;
      if (body.artifactUpdate)
        return `artifact ${body.artifactUpdate.artifact?.parts.map((part) => part.text).join('')}`;
      return Object.keys(body)[0];
    });
    expect(delivered).toEqual(streamed);
  });
});
