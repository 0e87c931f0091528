/**
 * A blocking send has a deadline (`a2a.blocking_timeout_secs`): past it the call answers with the
 * task as it stands, not yet ended, and the turn goes on. In every dialect; and with no worker to
 * take the turn, the answer is the task recorded as submitted, unless a worker took the turn
 * meanwhile: the task never goes back to submitted, in the store or on its stream.
 */
import { type SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import { DefaultExecutionEventBus, RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { TurnPublisher } from '../../src/tasks/lifecycle/turn-publisher';
import { createWorkerApp } from '../../src/app.factory';
import { TaskLifecycle } from '../../src/tasks/lifecycle/task-lifecycle.service';
import { QueuedAgentExecutor } from '../../src/a2a-server/queued-agent-executor';
import { QueuedTurnWatch } from '../../src/a2a-server/queued-turn-watch';
import { RequestScopedTaskStore } from '../../src/a2a-server/request-scoped-task-store';
import { agentTurnJobId } from '../../src/queue/agent-turn-job-id';
import { JOB_QUEUE, type JobQueue } from '../../src/queue/job-queue.interface';
import { JobName, QueueName } from '../../src/queue/queue.constants';
import { RedisService } from '../../src/redis/redis.service';
import { CANCEL_SIGNALS } from '../../src/tasks/cancel/cancel-signals.interface';
import { TASK_EVENT_STREAM, type TaskEventStream } from '../../src/tasks/events/task-event-stream.interface';
import { TASK_STORE, type TaskStore } from '../../src/task-store/task-store.interface';
import { TaskView } from '../../src/tasks/task-view';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { stateOf } from '../support/service-processes';
import { asTask, type Binding, sdkClient, userMessage } from '../support/sdk-client';
import type { Json } from '../support/json';

/** Starts, then works for ten minutes: a turn that does not end within any test. */
const ENDLESS_AGENT_TOML = `
[a2a]
blocking_timeout_secs = 0.5

[[agents]]
name = "endless"
description = "Never finishes"
[agents.executor]
type = "script"
steps = [{ status = "working" }, { artifact = { text = "partial" } }, { delay_ms = 600000 }, { status = "completed" }]
`;

describe('blocking sends past a2a.blocking_timeout_secs', () => {
  let app: NestFastifyApplication;
  let url: string;

  const postJson = async (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Json> => {
    const response = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(), ...headers },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Json;
  };
  const cancel = (taskId: string) =>
    postJson('/a2a', { jsonrpc: '2.0', id: 2, method: 'CancelTask', params: { id: taskId } }, { 'a2a-version': '1.0' });

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(ENDLESS_AGENT_TOML) })));
  });

  afterAll(async () => {
    await app?.close();
  });

  it.each<Binding>(['JSONRPC', 'HTTP+JSON'])(
    'v1.0 SendMessage over %s answers the working task, which goes on',
    async (binding) => {
      const client = await sdkClient(url, 'endless', binding);
      const task = asTask(await client.sendMessage(userMessage('take your time')));
      expect(task.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      expect(task.artifacts[0]?.parts[0]?.content?.value).toBe('partial');
      expect((await client.getTask({ id: task.id, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_WORKING);
      expect((await client.cancelTask({ id: task.id, tenant: '' } as never)).status?.state).toBe(
        TaskState.TASK_STATE_CANCELED,
      );
    },
  );

  it('v0.3 message/send answers the working task', async () => {
    const message = {
      kind: 'message',
      messageId: 'm-v03-endless',
      role: 'user',
      parts: [{ kind: 'text', text: 'take your time' }],
    };
    const { result } = await postJson('/a2a', { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message } });
    expect(result).toMatchObject({ kind: 'task', status: { state: 'working' } });
    await cancel(result.id);
  });

  it('the seeds\u2019 POST /a2a/tasks/send answers the working task', async () => {
    const task = await postJson('/a2a/tasks/send', {
      message: { role: 'user', parts: [{ type: 'text', text: 'take your time' }] },
    });
    expect(task).toMatchObject({ status: { state: 'working' } });
    await cancel(task.id);
  });
});

describe('a blocking send past its deadline with no worker to take the turn', () => {
  let service: DurableTestApp;

  beforeAll(async () => {
    service = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(ENDLESS_AGENT_TOML),
      SWITCHBOARD_WORKER_IN_API: 'false',
    });
  });

  afterAll(async () => {
    await service?.close();
  });

  it('answers the task recorded as submitted, which a worker will take', async () => {
    const client = await sdkClient(service.url, 'endless', 'JSONRPC');
    const request: SendMessageRequest = userMessage('is anyone there?');
    const task = asTask(await client.sendMessage(request));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    const stored: Task = await client.getTask({ id: task.id, tenant: '' });
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(stored.history.map((message) => message.messageId)).toEqual([request.message!.messageId]);
  });

  it('keeps the task a worker took meanwhile: a late submit neither overwrites it nor goes back on its stream', async () => {
    const app = service.app;
    const lifecycle = app.get(TaskLifecycle, { strict: false });
    const queue = app.get<JobQueue>(JOB_QUEUE, { strict: false });
    const stream = app.get<TaskEventStream>(TASK_EVENT_STREAM, { strict: false });
    const requestTasks = new RequestScopedTaskStore(app.get(TaskView, { strict: false }));
    const queuedTurns = new QueuedTurnWatch(queue, lifecycle);
    const executor = new QueuedAgentExecutor(
      'endless',
      queue,
      app.get(CANCEL_SIGNALS, { strict: false }),
      lifecycle,
      requestTasks,
      queuedTurns,
    );
    const context = new ServerCallContext();
    const request = userMessage('race me');
    const taskId = randomUUID();
    const requestContext = new RequestContext(request, taskId, randomUUID(), context);

    // The API accepts the blocking send: its turn is queued, its task not recorded yet.
    await executor.execute(requestContext, new DefaultExecutionEventBus());
    expect(await queue.isPending(JobName.AgentTurn, agentTurnJobId(taskId, request.message!.messageId))).toBe(true);
    // A worker takes the turn and records its first events...
    const recorder = await lifecycle.recordTurn(taskId, context);
    const publish = new TurnPublisher(recorder, requestContext);
    publish.task(requestContext);
    publish.status(TaskState.TASK_STATE_WORKING);
    await recorder.settled();
    // ...just as the send's deadline passes and the API records the task as submitted.
    const answered = await executor.announceQueued(context);

    expect(answered?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    expect((await app.get<TaskStore>(TASK_STORE, { strict: false }).load(taskId, context))?.status?.state).toBe(
      TaskState.TASK_STATE_WORKING,
    );
    const end = await stream.tail(taskId);
    const states: (TaskState | undefined)[] = [];
    for await (const { id, event } of stream.read(taskId, {})) {
      states.push(event.payload?.$case === 'task' ? event.payload.value.status?.state : stateOf(event));
      if (id === end) break;
    }
    expect(states).toEqual([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]);
  });
});

describe('a task canceled before any worker took its turn', () => {
  let service: DurableTestApp;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    const toml = ENDLESS_AGENT_TOML.replace('[a2a]\n', '[a2a]\ncancel_grace_ms = 100\n');
    service = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(toml),
      SWITCHBOARD_WORKER_IN_API: 'false',
    });
  });

  afterAll(async () => {
    await worker?.close();
    await service?.close();
  });

  it('stays canceled when a worker takes the turn later: nothing follows the end of its stream', async () => {
    const client = await sdkClient(service.url, 'endless', 'JSONRPC');
    const task = asTask(await client.sendMessage(userMessage('never mind')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect((await client.cancelTask({ id: task.id, tenant: '' } as never)).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );

    const queue = service.app.get<JobQueue>(JOB_QUEUE, { strict: false });
    worker = await createWorkerApp(service.config);
    await worker.init();
    await eventually(
      async () => (await queue.counts())[QueueName.AgentTurns],
      (counts) => counts.waiting + counts.active + counts.delayed === 0,
    );
    const redis = service.app.get(RedisService, { strict: false });
    const entries = (await redis.client.xrange(redis.key('task-events', task.id), '-', '+')) as [string, string[]][];
    expect(entries.at(-1)?.[1][0]).toBe('closed');
    expect(entries.filter(([, [field]]) => field === 'closed')).toHaveLength(1);
    expect((await client.getTask({ id: task.id, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });
});
