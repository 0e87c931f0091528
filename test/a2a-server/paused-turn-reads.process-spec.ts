/**
 * A task read while its turn pauses shows everything the turn published: the stored task (what
 * GetTask, the console, the admin API and MCP `tasks/get` read) catches up with the task's stream
 * within a second, whether or not the turn publishes anything more. Both modes, and both ways a
 * turn's task begins: announced by the API (`returnImmediately`) or first recorded by the turn.
 */
import { SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { startTestApp, testConfig } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { ServiceProcesses } from '../support/service-processes';

jest.setTimeout(60_000);

/** Publishes `working`, a moment later an artifact, then waits far longer than any test reads for. */
const STALLING_AGENT_TOML = `
[[agents]]
name = "staller"
description = "Works, shows a draft, then waits"
[agents.executor]
type = "script"
steps = [
  { status = "working" },
  { delay_ms = 50 },
  { artifact = { text = "draft" } },
  { delay_ms = 120000 },
  { status = "completed" },
]
`;

/** What GetTask must show once the turn has published its first events. */
function showsTheDraft(task: Task): boolean {
  const texts = task.artifacts.flatMap((artifact) =>
    artifact.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')),
  );
  return task.status?.state === TaskState.TASK_STATE_WORKING && texts.includes('draft');
}

/** Reads the task's stream up to the draft: the turn has published it, and is now paused. */
async function streamedTheDraft(client: Client, taskId: string): Promise<void> {
  for await (const event of client.resubscribeTask({ id: taskId, tenant: '' })) {
    const value = event.payload?.value;
    if (event.payload?.$case === 'task' && showsTheDraft(value as Task)) return;
    if (event.payload?.$case === 'artifactUpdate') return;
  }
  throw new Error('the task stream ended before the draft');
}

/** GetTask within about a second of the stream (the promise), polled; a generous bound keeps a slow host from failing it. */
function storedTask(client: Client, taskId: string): Promise<Task> {
  return eventually(() => client.getTask({ id: taskId, tenant: '', historyLength: 0 }), showsTheDraft, 5_000);
}

type Mode = 'durable (API and worker processes)' | 'embedded';

describe.each<Mode>(['durable (API and worker processes)', 'embedded'])(
  'a task read while its turn pauses (%s)',
  (mode) => {
    let database: TestDatabase | undefined;
    let redisPrefix: string | undefined;
    let services: ServiceProcesses | undefined;
    let app: NestFastifyApplication | undefined;
    let client: Client;
    const started: string[] = [];

    beforeAll(async () => {
      const configFile = writeConfigFile(STALLING_AGENT_TOML);
      let baseUrl: string;
      if (mode === 'embedded') {
        ({ app, url: baseUrl } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: configFile })));
      } else {
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
      }
      client = await sdkClient(baseUrl, 'staller', 'JSONRPC');
    });

    afterAll(async () => {
      // The turns would wait two minutes: canceled, they end now.
      await Promise.all(
        started.map((id) => client.cancelTask({ id, tenant: '', metadata: undefined }).catch(() => undefined)),
      );
      await app?.close();
      await services?.stopAll();
      if (redisPrefix) await deleteRedisKeys(redisPrefix);
      await database?.drop();
    });

    it('shows the turn as streamed when the send returned at once', async () => {
      const request = userMessage('draft it');
      request.configuration = SendMessageRequest.fromJSON({ configuration: { returnImmediately: true } }).configuration;
      const task = asTask(await client.sendMessage(request));
      started.push(task.id);
      await streamedTheDraft(client, task.id);
      expect(showsTheDraft(await storedTask(client, task.id))).toBe(true);
    });

    it('shows the turn as streamed when the turn recorded the task first', async () => {
      const events = client.sendMessageStream(userMessage('draft it'))[Symbol.asyncIterator]();
      let taskId: string | undefined;
      for (let next = await events.next(); !next.done; next = await events.next()) {
        const { payload } = next.value;
        if (payload?.$case === 'task') taskId = payload.value.id;
        if (payload?.$case === 'statusUpdate') taskId ??= payload.value.taskId;
        if (payload?.$case === 'artifactUpdate') break;
      }
      await events.return?.();
      started.push(taskId!);
      expect(showsTheDraft(await storedTask(client, taskId!))).toBe(true);
    });
  },
);
