/**
 * Clients that join a turn under way, through the SDK client: a webhook registered mid-turn hears
 * every event from then on, and a resubscriber sees the task as it is, then only later events.
 * Durable mode runs the turn on a separate worker process; embedded mode in the API's process.
 */
import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { startTestApp, testConfig } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { asTask, collect, sdkClient, userMessage } from '../support/sdk-client';
import { ServiceProcesses, stateOf, within } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';

jest.setTimeout(60_000);

/** `pauser` pauses between its two artifacts and before it completes: long enough for a client to join. */
const PAUSING_AGENT_TOML = `
[outbound]
allow_hosts = ["127.0.0.1"]

[[agents]]
name = "pauser"
description = "Two artifacts, with pauses"
[agents.executor]
type = "script"
steps = [
  { status = "working" },
  { artifact = { text = "first" } },
  { delay_ms = 2000 },
  { artifact = { text = "second" } },
  { delay_ms = 2000 },
  { status = "completed" },
]
${TEST_AGENTS_TOML}`;

interface Notification {
  artifactUpdate?: { artifact?: { parts?: { text?: string }[] } };
  statusUpdate?: { status?: { state?: string } };
}

function artifactTexts(events: StreamResponse[]): string[] {
  return events.flatMap((event) =>
    event.payload?.$case === 'artifactUpdate' ? textsOf(event.payload.value.artifact?.parts ?? []) : [],
  );
}

function textsOf(parts: Task['artifacts'][number]['parts']): string[] {
  return parts.map((part) => (part.content?.$case === 'text' ? part.content.value : ''));
}

/** Opens a streaming send and reads it up to the first artifact: the turn is then paused mid-way. */
async function startPausedTurn(client: Client): Promise<{ taskId: string; rest: AsyncIterator<StreamResponse> }> {
  const events = client.sendMessageStream(userMessage('go'))[Symbol.asyncIterator]();
  let taskId: string | undefined;
  for (let next = await events.next(); !next.done; next = await events.next()) {
    if (next.value.payload?.$case === 'task') taskId = next.value.payload.value.id;
    if (next.value.payload?.$case === 'artifactUpdate') return { taskId: taskId!, rest: events };
  }
  throw new Error('the stream ended before the first artifact');
}

type Mode = 'durable (API and worker processes)' | 'embedded';

describe.each<Mode>(['durable (API and worker processes)', 'embedded'])('joining a turn under way (%s)', (mode) => {
  let database: TestDatabase | undefined;
  let redisPrefix: string | undefined;
  let services: ServiceProcesses | undefined;
  let app: NestFastifyApplication | undefined;
  let baseUrl: string;
  let webhook: WebhookReceiver<Notification>;

  beforeAll(async () => {
    webhook = await WebhookReceiver.start();
    const configFile = writeConfigFile(PAUSING_AGENT_TOML);
    if (mode === 'embedded') {
      ({ app, url: baseUrl } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: configFile })));
      return;
    }
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: configFile,
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    const [api] = await Promise.all([services.api('api'), services.worker('worker')]);
    baseUrl = api.baseUrl;
  });

  afterAll(async () => {
    await app?.close();
    await services?.stopAll();
    webhook?.close();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('delivers to a webhook registered mid-turn every event from its registration on', async () => {
    const client = await sdkClient(baseUrl, 'pauser', 'JSONRPC');
    const { taskId, rest } = await startPausedTurn(client);
    const token = `mid-turn-${mode}`;
    await client.createTaskPushNotificationConfig({
      tenant: '',
      id: 'late',
      taskId,
      url: webhook.url,
      token,
      authentication: undefined,
    });
    for (let next = await rest.next(); !next.done; next = await rest.next());
    const notifications = () =>
      webhook.received.filter(({ headers }) => headers['x-a2a-notification-token'] === token).map(({ body }) => body);
    const states = () =>
      notifications().flatMap((n) => (n.statusUpdate?.status?.state ? [n.statusUpdate.status.state] : []));
    await eventually(
      async () => states(),
      (seen) => seen.includes('TASK_STATE_COMPLETED'),
    );
    const artifacts = notifications().flatMap((n) =>
      (n.artifactUpdate?.artifact?.parts ?? []).map((part) => part.text),
    );
    expect(artifacts).toContain('second');
  });

  it('resubscribed mid-turn, sees the task as it is, then only later events', async () => {
    const client = await sdkClient(baseUrl, 'pauser', 'JSONRPC');
    const { taskId, rest } = await startPausedTurn(client);
    await rest.return?.();
    const events = await within(
      collect(client.resubscribeTask({ id: taskId, tenant: '' })),
      20_000,
      'the resubscription',
    );
    const [first, ...later] = events;
    expect(first.payload?.$case).toBe('task');
    const snapshot = first.payload!.value as Task;
    expect(snapshot.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect(later.map((event) => event.payload?.$case)).not.toContain('task');
    expect(later.map(stateOf).filter((state) => state !== undefined)).toEqual([TaskState.TASK_STATE_COMPLETED]);
    const shown = [...snapshot.artifacts.flatMap((artifact) => textsOf(artifact.parts)), ...artifactTexts(later)];
    expect(shown).toEqual(['first', 'second']);
  });

  it('resubscribed to a task waiting for input, sees it so, and the stream ends', async () => {
    const client = await sdkClient(baseUrl, 'ask', 'JSONRPC');
    const task = asTask(await client.sendMessage(userMessage('book a flight')));
    const events = await within(
      collect(client.resubscribeTask({ id: task.id, tenant: '' })),
      10_000,
      'the resubscription',
    );
    expect(events.map((event) => event.payload?.$case)).toEqual(['task']);
    expect((events[0].payload!.value as Task).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  });
});
