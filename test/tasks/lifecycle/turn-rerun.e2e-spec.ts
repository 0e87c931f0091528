/**
 * A turn BullMQ runs again after its worker died. That worker may have died between saving a batch
 * and streaming it, and an API answers a send from the stream alone (it reads no stored task for a
 * task its send starts): the re-run puts on the stream what is saved but missing there (the turn's
 * task, its end) and replays nothing of an earlier turn onto the task. Each test sets the store and
 * stream as the dead worker left them, then runs the job again as BullMQ would, on a worker with
 * real Postgres and Redis.
 */
import { Role, SendMessageRequest, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { RequestContext } from '@a2a-js/sdk/server';
import type { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { submittedTask } from '../../../src/tasks/lifecycle/turn-publisher';
import { callContextOf, callerScopeOf } from '../../../src/tasks/caller-scope';
import { createWorkerApp } from '../../../src/app.factory';
import { JobHandlerRegistry } from '../../../src/queue/job-handler.registry';
import { JobName } from '../../../src/queue/queue.constants';
import { TASK_EVENT_STREAM, type TaskEventStream } from '../../../src/tasks/events/task-event-stream.interface';
import { TASK_STORE, type TaskStore } from '../../../src/task-store/task-store.interface';
import { type DurableTestApp, startDurableTestApp } from '../../support/durable-test-app';
import { userMessage } from '../../support/sdk-client';

const context = callContextOf({ tenant: '', userName: 'tester', authenticated: true });

describe('a turn run again after its worker died', () => {
  let service: DurableTestApp;
  let worker: INestApplicationContext;
  let store: TaskStore;
  let stream: TaskEventStream;

  beforeAll(async () => {
    service = await startDurableTestApp({ SWITCHBOARD_WORKER_IN_API: 'false' });
    worker = await createWorkerApp(service.config);
    await worker.init();
    store = worker.get<TaskStore>(TASK_STORE);
    stream = worker.get<TaskEventStream>(TASK_EVENT_STREAM);
  });

  afterAll(async () => {
    await worker?.close();
    await service?.close();
  });

  /** The task of `request` as its turn's first batch leaves it, in `state`. */
  function taskOf(
    request: SendMessageRequest,
    state: TaskState,
    ids: { taskId: string; contextId: string },
    existing?: Task,
  ): Task {
    const submitted = submittedTask(new RequestContext(request, ids.taskId, ids.contextId, context, existing));
    return { ...submitted, status: { ...submitted.status!, state } };
  }

  /** Runs the echo agent's turn of `request` again, as BullMQ runs a stalled job. */
  async function rerun(
    request: SendMessageRequest,
    { taskId, contextId }: { taskId: string; contextId: string },
    newTask: boolean,
  ): Promise<void> {
    const payload = {
      agent: 'echo',
      taskId,
      contextId,
      request: SendMessageRequest.toJSON(request),
      caller: callerScopeOf(context),
    };
    await worker
      .get(JobHandlerRegistry)
      .dispatch(
        JobName.AgentTurn,
        { ...payload, announced: false, newTask, withWebhook: false },
        { attemptsStarted: 2 },
      );
  }

  /** The stream's events after `afterId`, up to its close (or the `count`th). */
  async function eventsAfter(taskId: string, afterId: string, count = Infinity): Promise<StreamResponse[]> {
    const events: StreamResponse[] = [];
    for await (const { event } of stream.read(taskId, { afterId })) if (events.push(event) === count) break;
    return events;
  }

  /** A new task's turn whose worker saved it in `state`, then died before streaming it, run again: the stream's events. */
  async function rerunUnstreamed(state: TaskState): Promise<StreamResponse[]> {
    const ids = { taskId: randomUUID(), contextId: randomUUID() };
    const request = userMessage('lost on the way');
    await store.saveUnlessEnded(taskOf(request, state, ids), context);
    await rerun(request, ids, true);
    expect(await stream.tail(ids.taskId)).not.toBe(stream.start);
    // The read ends only at the stream's close.
    return eventsAfter(ids.taskId, stream.start);
  }

  it('streams the task first when it was saved but not streamed', async () => {
    const events = await rerunUnstreamed(TaskState.TASK_STATE_WORKING);
    expect(events.map((event) => event.payload?.$case)).toEqual(['task', 'statusUpdate']);
    expect(events[0].payload?.value).toMatchObject({ status: { state: TaskState.TASK_STATE_WORKING } });
    expect(events[1].payload?.value).toMatchObject({ status: { state: TaskState.TASK_STATE_FAILED } });
  });

  it('streams the task and its end, closing the stream, when the turn was saved ended but not streamed', async () => {
    const events = await rerunUnstreamed(TaskState.TASK_STATE_COMPLETED);
    expect(events.map((event) => event.payload?.$case)).toEqual(['task', 'statusUpdate']);
    for (const { payload } of events)
      expect(payload?.value).toMatchObject({ status: { state: TaskState.TASK_STATE_COMPLETED } });
  });

  it('streams only the end when the turn was streamed up to a batch saved ended', async () => {
    const ids = { taskId: randomUUID(), contextId: randomUUID() };
    const request = userMessage('almost there');
    const working = taskOf(request, TaskState.TASK_STATE_WORKING, ids);
    await stream.publish(ids.taskId, [{ payload: { $case: 'task', value: working } }]);
    await store.saveUnlessEnded(taskOf(request, TaskState.TASK_STATE_COMPLETED, ids), context);
    const streamed = await stream.tail(ids.taskId);

    await rerun(request, ids, true);

    const events = await eventsAfter(ids.taskId, streamed);
    expect(events.map((event) => event.payload?.$case)).toEqual(['statusUpdate']);
    expect(events[0].payload?.value).toMatchObject({ status: { state: TaskState.TASK_STATE_COMPLETED } });
  });

  it('adds nothing to a stream a cancel closed', async () => {
    const ids = { taskId: randomUUID(), contextId: randomUUID() };
    const request = userMessage('never mind');
    const canceled = taskOf(request, TaskState.TASK_STATE_CANCELED, ids);
    await store.saveUnlessEnded(canceled, context);
    await stream.publish(
      ids.taskId,
      [{ payload: { $case: 'statusUpdate', value: { ...ids, status: canceled.status, metadata: {} } } }],
      {
        close: true,
      },
    );
    const closed = await stream.tail(ids.taskId);

    await rerun(request, ids, true);

    expect(await stream.tail(ids.taskId)).toBe(closed);
  });

  it('leaves a turn that asked for input as it ended, streamed or not', async () => {
    for (const streamedEnd of [true, false]) {
      const ids = { taskId: randomUUID(), contextId: randomUUID() };
      const request = userMessage('which city?');
      const asking = taskOf(request, TaskState.TASK_STATE_INPUT_REQUIRED, ids);
      await stream.publish(ids.taskId, [
        { payload: { $case: 'task', value: taskOf(request, TaskState.TASK_STATE_WORKING, ids) } },
        ...(streamedEnd
          ? [{ payload: { $case: 'statusUpdate' as const, value: { ...ids, status: asking.status, metadata: {} } } }]
          : []),
      ]);
      await store.saveUnlessEnded(asking, context);
      const streamed = await stream.tail(ids.taskId);

      await rerun(request, ids, true);

      expect((await store.load(ids.taskId, context))?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      if (streamedEnd) expect(await stream.tail(ids.taskId)).toBe(streamed);
      else
        expect((await eventsAfter(ids.taskId, streamed, 1))[0].payload?.value).toMatchObject({
          status: { state: TaskState.TASK_STATE_INPUT_REQUIRED },
        });
    }
  });

  it('keeps what was saved of a turn that ended, where the stream has less', async () => {
    const ids = { taskId: randomUUID(), contextId: randomUUID() };
    const request = userMessage('which city?');
    await stream.publish(ids.taskId, [
      { payload: { $case: 'task', value: taskOf(request, TaskState.TASK_STATE_WORKING, ids) } },
    ]);
    const asking = taskOf(request, TaskState.TASK_STATE_INPUT_REQUIRED, ids);
    const question = { ...userMessage('Lisbon or Porto?').message!, role: Role.ROLE_AGENT, ...ids };
    await store.saveUnlessEnded({ ...asking, history: [...asking.history, question] }, context);

    await rerun(request, ids, true);

    const stored = (await store.load(ids.taskId, context))!;
    expect(stored.history.map((message) => message.messageId)).toEqual([
      request.message!.messageId,
      question.messageId,
    ]);
  });

  /**
   * A follow-up turn saved in `state`, then not streamed, on a task whose earlier turn asked for
   * input and then answered directly (which closes the stream); run again: the events after that close.
   */
  async function rerunFollowUpOfDirectAnswer(state: TaskState): Promise<StreamResponse[]> {
    const ids = { taskId: randomUUID(), contextId: randomUUID() };
    const first = userMessage('where to?');
    const earlier = taskOf(first, TaskState.TASK_STATE_INPUT_REQUIRED, ids);
    await stream.publish(ids.taskId, [{ payload: { $case: 'task', value: earlier } }]);
    const answer = { ...userMessage('a direct answer').message!, role: Role.ROLE_AGENT, ...ids };
    await stream.publish(ids.taskId, [{ payload: { $case: 'message', value: answer } }], { close: true });
    const reply = userMessage('Lisbon', ids);
    await store.saveUnlessEnded(taskOf(reply, state, ids, earlier), context);
    const closedByAnswer = await stream.tail(ids.taskId);
    await rerun(reply, ids, false);
    return eventsAfter(ids.taskId, closedByAnswer);
  }

  it('runs on a follow-up whose stream an earlier turn closed with a direct answer', async () => {
    const events = await rerunFollowUpOfDirectAnswer(TaskState.TASK_STATE_WORKING);
    expect(events.map((event) => event.payload?.$case)).toEqual(['task', 'statusUpdate']);
    expect(events[1].payload?.value).toMatchObject({ status: { state: TaskState.TASK_STATE_FAILED } });
  });

  it('streams the end of a follow-up saved ended when an earlier turn closed the stream with a direct answer', async () => {
    const events = await rerunFollowUpOfDirectAnswer(TaskState.TASK_STATE_COMPLETED);
    expect(events.map((event) => event.payload?.$case)).toEqual(['task', 'statusUpdate']);
    expect(events[1].payload?.value).toMatchObject({ status: { state: TaskState.TASK_STATE_COMPLETED } });
  });

  it('replays nothing of the earlier turn onto a follow-up saved but not streamed', async () => {
    const ids = { taskId: randomUUID(), contextId: randomUUID() };
    const first = userMessage('where to?');
    const earlier = taskOf(first, TaskState.TASK_STATE_INPUT_REQUIRED, ids);
    await stream.publish(ids.taskId, [
      { payload: { $case: 'task', value: taskOf(first, TaskState.TASK_STATE_SUBMITTED, ids) } },
      { payload: { $case: 'statusUpdate', value: { ...ids, status: earlier.status, metadata: {} } } },
    ]);
    const reply = userMessage('Lisbon', { taskId: ids.taskId, contextId: ids.contextId });
    await store.saveUnlessEnded(taskOf(reply, TaskState.TASK_STATE_WORKING, ids, earlier), context);
    const earlierEnd = await stream.tail(ids.taskId);

    await rerun(reply, ids, false);

    const events = await eventsAfter(ids.taskId, earlierEnd);
    expect(events.map((event) => event.payload?.$case)).toEqual(['task', 'statusUpdate']);
    const stored = (await store.load(ids.taskId, context))!;
    expect(stored.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const users = stored.history
      .filter((message) => message.role === Role.ROLE_USER)
      .map((message) => message.messageId);
    expect(users).toEqual([first.message!.messageId, reply.message!.messageId]);
  });
});
