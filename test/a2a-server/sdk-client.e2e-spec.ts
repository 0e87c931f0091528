import { ListTasksRequest, TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { startTestApp, testConfig } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';
import { artifactText, asTask, type Binding, collect, kinds, sdkClient, userMessage } from '../support/sdk-client';
import { TEST_AGENTS_TOML } from '../support/test-agents';

interface NotificationBody {
  statusUpdate?: { status?: { state?: string } };
  task?: { status?: { state?: string } };
}

type Mode = 'durable' | 'embedded';
const CASES: [Mode, Binding][] = [
  ['durable', 'JSONRPC'],
  ['durable', 'HTTP+JSON'],
  ['embedded', 'JSONRPC'],
  ['embedded', 'HTTP+JSON'],
];

/** Durable: Postgres, Redis and BullMQ workers. Embedded: memory stores and in-process turns. */
describe.each(CASES)('A2A server (%s) through the SDK client over %s', (mode, binding) => {
  let database: TestDatabase | undefined;
  let redisPrefix: string | undefined;
  let app: NestFastifyApplication;
  let url: string;
  let webhook: WebhookReceiver<NotificationBody>;

  beforeAll(async () => {
    webhook = await WebhookReceiver.start();
    const configFile = writeConfigFile(`${TEST_AGENTS_TOML}\n[outbound]\nallow_hosts = ["127.0.0.1"]\n`);
    let stores = {};
    if (mode === 'durable') {
      database = await createTestDatabase();
      redisPrefix = testRedisPrefix();
      stores = { DATABASE_URL: database.url, REDIS_URL: testRedisUrl(), SWITCHBOARD_REDIS_PREFIX: redisPrefix };
    }
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: configFile, ...stores })));
  });

  afterAll(async () => {
    await app?.close();
    webhook?.close();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('answers a blocking send with the completed task', async () => {
    const client = await sdkClient(url, 'echo', binding);
    const task = asTask(await client.sendMessage(userMessage('hello there')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('hello there');
    // The answer is in the artifacts alone: the history holds the message sent.
    expect(task.history.map((m) => m.parts[0].content?.value)).toEqual(['hello there']);
    expect(task.status?.message).toBeUndefined();
  });

  it('streams task, working, every artifact chunk and completed, in order', async () => {
    const client = await sdkClient(url, 'echo', binding);
    const events = await collect(client.sendMessageStream(userMessage('abcdefghi')));
    expect(kinds(events)).toEqual([
      'task',
      'statusUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'artifactUpdate',
      'statusUpdate',
    ]);
    const [task, working, ...rest] = events.map((e) => e.payload!.value);
    expect('status' in task && task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect('status' in working && working.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const chunks = rest.slice(0, 3).map((e) => ('artifact' in e ? e.artifact?.parts[0].content?.value : undefined));
    expect(chunks.join('')).toBe('abcdefghi');
    const completed = rest[3];
    expect('status' in completed && completed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('gets and lists tasks, honouring historyLength', async () => {
    const client = await sdkClient(url, 'echo', binding);
    const sent = asTask(await client.sendMessage(userMessage('remember me')));
    const got = await client.getTask({ id: sent.id, historyLength: 1, tenant: '' });
    expect(got.id).toBe(sent.id);
    expect(got.history).toHaveLength(1);
    const listed = await client.listTasks(ListTasksRequest.fromJSON({ contextId: sent.contextId, pageSize: 10 }));
    expect(listed.tasks.map((t) => t.id)).toEqual([sent.id]);
  });

  it('answers task-not-found for an unknown task', async () => {
    const client = await sdkClient(url, 'echo', binding);
    await expect(client.getTask({ id: 'no-such-task', tenant: '' })).rejects.toThrow(/not found/i);
  });

  it('cancels a running task within a second, and the task ends canceled', async () => {
    const client = await sdkClient(url, 'slow', binding);
    const events = client.sendMessageStream(userMessage('a long answer to cancel'))[Symbol.asyncIterator]();
    const first = await events.next();
    const taskId = (first.value!.payload!.value as { id: string }).id;
    await events.next(); // working: the turn is running on a worker
    const started = Date.now();
    const canceled = await client.cancelTask({ id: taskId, tenant: '' } as never);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest = [];
    for (let next = await events.next(); !next.done; next = await events.next()) rest.push(next.value);
    expect(rest.at(-1)?.payload?.$case).toBe('statusUpdate');
    expect((rest.at(-1)!.payload!.value as { status: { state: TaskState } }).status.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    expect((await client.getTask({ id: taskId, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('refuses to cancel a finished task with the not-cancelable error', async () => {
    const client = await sdkClient(url, 'echo', binding);
    const task = asTask(await client.sendMessage(userMessage('done already')));
    await expect(client.cancelTask({ id: task.id, tenant: '' } as never)).rejects.toThrow(/cancel/i);
    expect((await client.getTask({ id: task.id, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('refuses a message to a finished task, and leaves the task as it was', async () => {
    const client = await sdkClient(url, 'echo', binding);
    const task = asTask(await client.sendMessage(userMessage('first')));
    await expect(client.sendMessage(userMessage('again', { taskId: task.id }))).rejects.toThrow(/terminal/i);
    const after = await client.getTask({ id: task.id, tenant: '' });
    expect(after.history).toHaveLength(task.history.length);
  });

  it('resubscribes after dropping its stream and gets every remaining event', async () => {
    const client = await sdkClient(url, 'slow', binding);
    const seen = await collect(client.sendMessageStream(userMessage('0123456789')), 3);
    const taskId = (seen[0].payload!.value as { id: string }).id;
    const resumed = await collect(client.resubscribeTask({ id: taskId, tenant: '' }));
    expect(resumed[0].payload?.$case).toBe('task');
    const last = resumed.at(-1)!.payload!;
    expect(last.$case).toBe('statusUpdate');
    expect((last.value as { status: { state: TaskState } }).status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const chunks = [...seen, ...resumed].filter((e) => e.payload?.$case === 'artifactUpdate');
    const texts = new Set(
      chunks.map(
        (e) =>
          (e.payload!.value as { artifact: { parts: { content: { value: string } }[] } }).artifact.parts[0].content
            .value,
      ),
    );
    expect([...texts].join('')).toBe('0123456789');
    expect(artifactText(await client.getTask({ id: taskId, tenant: '' }))).toBe('0123456789');
  });

  it('delivers push notifications with the registered token to a webhook', async () => {
    const client = await sdkClient(url, 'echo', binding);
    const token = `token-${binding}`;
    const request = userMessage('notify me');
    request.configuration = {
      acceptedOutputModes: [],
      returnImmediately: false,
      taskPushNotificationConfig: {
        tenant: '',
        id: 'hook-1',
        taskId: '',
        url: webhook.url,
        token,
        authentication: undefined,
      },
    } as never;
    const task = asTask(await client.sendMessage(request));
    const states = () =>
      webhook.received
        .filter((n) => n.headers['x-a2a-notification-token'] === token)
        .map((n) => n.body.statusUpdate?.status?.state ?? n.body.task?.status?.state);
    await eventually(
      async () => states(),
      (seen) => seen.includes('TASK_STATE_COMPLETED'),
    );
    const configs = await client.listTaskPushNotificationConfig({
      taskId: task.id,
      tenant: '',
      pageSize: 0,
      pageToken: '',
    } as never);
    expect(configs.configs.map((c) => c.url)).toEqual([webhook.url]);
  });

  it('keeps a task waiting for input, and continues it with the next message', async () => {
    const client = await sdkClient(url, 'ask', binding);
    const task = asTask(await client.sendMessage(userMessage('book a flight')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const next = asTask(await client.sendMessage(userMessage('Paris', { taskId: task.id, contextId: task.contextId })));
    expect(next.id).toBe(task.id);
    expect(next.history.filter((m) => m.role === 1).map((m) => m.parts[0].content?.value)).toEqual([
      'book a flight',
      'Paris',
    ]);
  });

  it('refuses a resubscribe to a finished task as a terminal one, without a word on the console', async () => {
    const client = await sdkClient(url, 'echo', binding);
    const task = asTask(await client.sendMessage(userMessage('done already')));
    // The SDK warns on the console about events it cannot apply: the resubscriber's replay of the turn must give it none.
    const warn = jest.spyOn(console, 'warn');
    try {
      await expect(collect(client.resubscribeTask({ id: task.id, tenant: '' }))).rejects.toThrow(/terminal state/);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('ends a task failed, with the error, when the agent throws', async () => {
    const client = await sdkClient(url, 'broken', binding);
    const task = asTask(await client.sendMessage(userMessage('break')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(task.status?.message?.parts[0].content?.value).toMatch(/boom/);
  });

  it('passes on a direct message answer, with no task', async () => {
    const client = await sdkClient(url, 'replier', binding);
    const result = await client.sendMessage(userMessage('hi'));
    expect('messageId' in result && result.parts[0].content?.value).toBe('direct answer');
  });

  it('answers the content-type error when the client accepts nothing the agent produces', async () => {
    const client = await sdkClient(url, 'picky', binding);
    const request = userMessage('draw');
    request.configuration = { acceptedOutputModes: ['text/plain'], returnImmediately: false } as never;
    await expect(client.sendMessage(request)).rejects.toThrow(/output modes/);
  });
});
