/**
 * A send whose message names no task creates one, and its answer is built from the task's stream
 * alone: the API reads nothing of the new task from the task store (a snapshot-cache round trip
 * per send), on real Postgres, Redis and BullMQ with a separate worker.
 */
import { TaskState } from '@a2a-js/sdk';
import type { INestApplicationContext } from '@nestjs/common';
import { createWorkerApp } from '../../src/app.factory';
import { TASK_STORE, TaskStore } from '../../src/task-store/task-store.interface';
import { DurableTestApp, startDurableTestApp } from './support/durable-test-app';
import { artifactText, asTask, collect, kinds, sdkClient, userMessage } from './support/sdk-client';

describe('a send that creates its task', () => {
  let service: DurableTestApp;
  let worker: INestApplicationContext;
  let loaded: string[];

  beforeAll(async () => {
    service = await startDurableTestApp({ SWITCHBOARD_WORKER_IN_API: 'false' });
    worker = await createWorkerApp(service.config);
    await worker.init();
    const store = service.app.get<TaskStore>(TASK_STORE);
    const load = store.load.bind(store);
    jest.spyOn(store, 'load').mockImplementation((taskId, context) => {
      loaded.push(taskId);
      return load(taskId, context);
    });
  });

  beforeEach(() => (loaded = []));

  afterAll(async () => {
    jest.restoreAllMocks();
    await worker?.close();
    await service?.close();
  });

  it('is answered from its stream, with no read of the new task from the store', async () => {
    const client = await sdkClient(service.url, 'echo', 'JSONRPC');
    const task = asTask(await client.sendMessage(userMessage('hello there')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.history.map((message) => message.parts[0]?.content)).toContainEqual({ $case: 'text', value: 'hello there' });
    expect(artifactText(task)).toContain('hello there');
    expect(loaded).not.toContain(task.id);
    expect(await client.getTask({ id: task.id, tenant: '' })).toMatchObject({ id: task.id, artifacts: task.artifacts });
  });

  it('streams the new task whole, then its events, with no read of it from the store', async () => {
    const client = await sdkClient(service.url, 'echo', 'HTTP+JSON');
    const events = await collect(client.sendMessageStream(userMessage('streamed')));
    expect(kinds(events)[0]).toBe('task');
    const task = events[0].payload?.$case === 'task' ? events[0].payload.value : undefined;
    expect(task?.history.length).toBeGreaterThan(0);
    expect(loaded).not.toContain(task?.id);
  });

  it('still reads a task it continues from the store', async () => {
    const client = await sdkClient(service.url, 'ask', 'JSONRPC');
    const asked = asTask(await client.sendMessage(userMessage('where to?')));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(loaded).toEqual([]);
    const answered = asTask(await client.sendMessage(userMessage('home', { taskId: asked.id, contextId: asked.contextId })));
    expect(answered.id).toBe(asked.id);
    expect(loaded).toContain(asked.id);
  });
});
