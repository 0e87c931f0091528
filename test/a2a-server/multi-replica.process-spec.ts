/**
 * Two API processes (A, B) and one worker process (W), as separate `switchboard` processes sharing
 * one Postgres database and one Redis prefix: a task belongs to the service, not to the replica
 * that took the request, and survives the restart of any process.
 */
import {
  SendMessageConfiguration,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import { type Client } from '@a2a-js/sdk/client';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { grpcClient } from './support/grpc-client';
import { artifactText, asTask, collect, sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, stateOf, within } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';

jest.setTimeout(30_000);

/** On agent `slow`, ten characters make five artifact chunks of two, 300 ms apart. */
const FIVE_CHUNKS = '0123456789';

function nonBlocking(text: string, extra: Record<string, unknown> = {}): SendMessageRequest {
  const request = userMessage(text, extra);
  request.configuration = SendMessageConfiguration.fromJSON({ returnImmediately: true });
  return request;
}

function chunkTexts(events: StreamResponse[]): string[] {
  return events.flatMap((event) =>
    event.payload?.$case === 'artifactUpdate'
      ? (event.payload.value.artifact?.parts ?? []).map((part) =>
          part.content?.$case === 'text' ? part.content.value : '',
        )
      : [],
  );
}

function partTexts(task: Task): string[] {
  return task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''));
}

function texts(task: Task): (string | undefined)[] {
  return task.history.map((message) =>
    message.parts[0]?.content?.$case === 'text' ? message.parts[0].content.value : undefined,
  );
}

describe('several API replicas and a worker, as separate processes', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let services: ServiceProcesses;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let worker: ServiceProcess;

  const client = (api: ServiceProcess, agent: string): Promise<Client> => sdkClient(api.baseUrl, agent, 'JSONRPC');
  /** A task read at its agent's endpoint, the only one that serves it. */
  const getTask = async (api: ServiceProcess, agent: string, id: string): Promise<Task> =>
    (await client(api, agent)).getTask({ id, tenant: '' });

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    [a, b, worker] = await Promise.all([
      services.api('api-a', { grpc: true }),
      services.api('api-b', { grpc: true }),
      services.worker('worker'),
    ]);
  });

  afterAll(async () => {
    await services?.stopAll();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('streams, on replica A, the events of a turn enqueued through replica B', async () => {
    const sent = asTask(
      await within(
        (await client(b, 'slow')).sendMessage(nonBlocking(FIVE_CHUNKS)),
        5_000,
        'non-blocking send through B',
      ),
    );
    const events = await within(
      collect((await client(a, 'slow')).resubscribeTask({ id: sent.id, tenant: '' })),
      10_000,
      "A's stream of the task",
    );

    expect(events[0]?.payload?.$case).toBe('task');
    expect(stateOf(events.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    const snapshot = events[0].payload!.value as Task;
    // The snapshot holds the chunks recorded before the stream opened; the stream, the rest (or all).
    expect([...new Set([...partTexts(snapshot), ...chunkTexts(events)])].join('')).toBe(FIVE_CHUNKS);
    expect(artifactText(await getTask(a, 'slow', sent.id))).toBe(FIVE_CHUNKS);
  });

  it('streams over gRPC, on replica A, the events of a turn sent over gRPC through replica B', async () => {
    const sent = asTask(
      await within(
        (await grpcClient(b.baseUrl, 'slow')).sendMessage(nonBlocking(FIVE_CHUNKS)),
        5_000,
        'non-blocking gRPC send through B',
      ),
    );
    const onA = await grpcClient(a.baseUrl, 'slow');
    const events = await within(
      collect(onA.resubscribeTask({ id: sent.id, tenant: '' })),
      10_000,
      "A's gRPC stream of the task",
    );
    expect(stateOf(events.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(await onA.getTask({ id: sent.id, tenant: '' }))).toBe(FIVE_CHUNKS);
  });

  it('cancels, through replica A and within a second, a turn sent through replica B', async () => {
    const stream = (await client(b, 'slow')).sendMessageStream(userMessage(FIVE_CHUNKS))[Symbol.asyncIterator]();
    const first = await within(stream.next(), 5_000, "B's first stream event");
    const task = (first.value as StreamResponse).payload!.value as Task;
    const working = await within(stream.next(), 5_000, "B's second stream event");
    expect(stateOf(working.value as StreamResponse)).toBe(TaskState.TASK_STATE_WORKING);

    const started = Date.now();
    const canceled = await (await client(a, 'slow')).cancelTask({ id: task.id, tenant: '', metadata: undefined });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);

    const rest: StreamResponse[] = [];
    await within(
      (async () => {
        for (let next = await stream.next(); !next.done; next = await stream.next()) rest.push(next.value);
      })(),
      5_000,
      "the rest of B's stream",
    );
    expect(stateOf(rest.at(-1))).toBe(TaskState.TASK_STATE_CANCELED);
    const onB = await getTask(b, 'slow', task.id);
    expect(onB.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(artifactText(onB)).not.toBe(FIVE_CHUNKS);
  });

  it('keeps tasks, with history and artifacts, across a restart of every API replica, and continues a waiting one', async () => {
    const asking = asTask(await (await client(a, 'ask')).sendMessage(userMessage('book a flight')));
    expect(asking.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const echoed = asTask(await (await client(b, 'echo')).sendMessage(userMessage('keep me')));
    expect(echoed.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const before = [await getTask(a, 'ask', asking.id), await getTask(a, 'echo', echoed.id)];

    const exits = await Promise.all([a.stop(), b.stop()]);
    await services.explain(() => expect(exits).toEqual([0, 0]));
    [a, b] = await Promise.all([services.api('api-a-restarted'), services.api('api-b-restarted')]);

    const after = [await getTask(a, 'ask', asking.id), await getTask(b, 'echo', echoed.id)];
    expect(after).toEqual(before);
    expect(texts(after[0])).toEqual(['book a flight', 'Which city?']);
    expect(artifactText(after[1])).toBe('keep me');

    const continued = asTask(
      await (
        await client(a, 'ask')
      ).sendMessage(userMessage('Paris', { taskId: asking.id, contextId: asking.contextId })),
    );
    expect(continued.id).toBe(asking.id);
    expect(continued.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(continued.history.length).toBeGreaterThan(after[0].history.length);
    expect(texts(await getTask(b, 'ask', asking.id))).toEqual(['book a flight', 'Which city?', 'Paris', 'Which city?']);
  });

  describe('with no worker running', () => {
    let pending: Promise<Task>;
    const aborter = new AbortController();

    beforeAll(async () => {
      const exit = await worker.stop();
      await services.explain(() => expect(exit).toBe(0));
    });

    afterAll(() => aborter.abort());

    it('answers a non-blocking send at once with the submitted task', async () => {
      pending = client(a, 'echo').then(async (echo) =>
        asTask(await echo.sendMessage(nonBlocking('queued while no worker runs'), { signal: aborter.signal })),
      );
      pending.catch(() => undefined); // awaited below and by the next test
      const task = await within(pending, 3_000, 'a send with returnImmediately while no worker runs');
      expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
      expect((await getTask(b, 'echo', task.id)).status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    });

    it('runs a turn queued while no worker ran once a worker starts', async () => {
      worker = await services.worker('worker-restarted');
      const task = await within(pending, 10_000, 'non-blocking send, after a worker started');
      const done = await eventually(
        () => getTask(b, 'echo', task.id),
        (latest) => latest.status?.state === TaskState.TASK_STATE_COMPLETED,
        10_000,
      );
      expect(artifactText(done)).toBe('queued while no worker runs');
    });
  });
});
