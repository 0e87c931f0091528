/**
 * A send that starts a task tells its turn so. The worker's first attempt does not read a task the
 * store cannot hold yet (a cache lookup and a database read saved per new task), nor look for a
 * cancel sent before it while no client can know the task's id (blocking-timeout.process-spec covers a
 * turn taken later than that); a turn on an existing task starts from the task as stored, its
 * history included. Nor does the API look up where the new task's stream ends, or look into it
 * before waiting on it: it has none yet; nor does it read the task while it replays the turn's
 * events for its answer (turn-rerun.e2e-spec covers what that asks of a re-run). Events an agent
 * publishes at once are recorded together: one write to the store and one to the stream. Real
 * BullMQ, Postgres and Redis, with a separate worker whose stores are watched.
 */
import { Role, TaskState } from '@a2a-js/sdk';
import type { INestApplicationContext } from '@nestjs/common';
import { createWorkerApp } from '../../src/app.factory';
import { RedisService } from '../../src/redis/redis.service';
import { CANCEL_SIGNALS, type CancelSignals } from '../../src/tasks/cancel/cancel-signals.interface';
import { TASK_EVENT_STREAM, type TaskEventStream } from '../../src/tasks/events/task-event-stream.interface';
import { TASK_STORE, type TaskStore } from '../../src/task-store/task-store.interface';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';

describe('the turn of a new task', () => {
  let service: DurableTestApp;
  let worker: INestApplicationContext;
  let loads: jest.SpyInstance;
  let tails: jest.SpyInstance;
  let saves: jest.SpyInstance;
  let publishes: jest.SpyInstance;
  let apiLoads: jest.SpyInstance;
  let apiReads: jest.SpyInstance;
  let cancelChecks: jest.SpyInstance;

  beforeAll(async () => {
    service = await startDurableTestApp({ SWITCHBOARD_WORKER_IN_API: 'false' });
    worker = await createWorkerApp(service.config);
    await worker.init();
    loads = jest.spyOn(worker.get<TaskStore>(TASK_STORE), 'load');
    cancelChecks = jest.spyOn(worker.get<CancelSignals>(CANCEL_SIGNALS), 'isRequested');
    tails = jest.spyOn(service.app.get<TaskEventStream>(TASK_EVENT_STREAM), 'tail');
    saves = jest.spyOn(worker.get<TaskStore>(TASK_STORE), 'saveUnlessEnded');
    publishes = jest.spyOn(worker.get<TaskEventStream>(TASK_EVENT_STREAM), 'publish');
    apiLoads = jest.spyOn(service.app.get<TaskStore>(TASK_STORE), 'load');
    // What a stream holds is read on the command connection before its follower waits on a multiplexed reader.
    apiReads = jest.spyOn(service.app.get(RedisService).client, 'xread');
  });

  const readsOf = (taskId: string) =>
    apiReads.mock.calls.filter((args: unknown[]) => args.some((arg) => String(arg).endsWith(taskId)));

  afterAll(async () => {
    await worker?.close();
    await service?.close();
  });

  it('does not read the task, look into its stream or for a cancel sent before it, and the next turn on it does', async () => {
    const client = await sdkClient(service.url, 'ask', 'JSONRPC');
    const first = userMessage('where to?');
    const task = asTask(await client.sendMessage(first));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(loads.mock.calls.filter(([taskId]) => taskId === task.id)).toHaveLength(0);
    expect(tails.mock.calls.filter(([taskId]) => taskId === task.id)).toHaveLength(0);
    expect(readsOf(task.id)).toHaveLength(0);
    expect(cancelChecks.mock.calls.filter(([taskId]) => taskId === task.id)).toHaveLength(0);

    const reply = userMessage('Lisbon', { taskId: task.id, contextId: task.contextId });
    const second = asTask(await client.sendMessage(reply));
    expect(loads.mock.calls.filter(([taskId]) => taskId === task.id)).toHaveLength(1);
    expect(tails.mock.calls.filter(([taskId]) => taskId === task.id)).toHaveLength(1);
    expect(readsOf(task.id)).toHaveLength(1);
    expect(cancelChecks.mock.calls.filter(([taskId]) => taskId === task.id)).toHaveLength(1);
    const users = second.history
      .filter((message) => message.role === Role.ROLE_USER)
      .map((message) => message.messageId);
    expect(users).toEqual([first.message!.messageId, reply.message!.messageId]);
  });

  it('records events published at once in one batch, and the API reads no task to answer', async () => {
    const client = await sdkClient(service.url, 'echo', 'JSONRPC');
    const task = asTask(await client.sendMessage(userMessage('three chunks at once')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const echoed = task.artifacts
      .flatMap((artifact) => artifact.parts)
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''));
    expect(echoed.join('')).toBe('three chunks at once');
    // The echo publishes the task, working, three chunks and completed without waiting in between.
    expect(saves.mock.calls.filter(([saved]) => saved.id === task.id)).toHaveLength(1);
    expect(publishes.mock.calls.filter(([taskId]) => taskId === task.id)).toHaveLength(1);
    expect(apiLoads.mock.calls.filter(([taskId]) => taskId === task.id)).toHaveLength(0);
  });
});
