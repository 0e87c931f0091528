import { Role, type StreamResponse, type Task, TaskState, type TaskStatus } from '@a2a-js/sdk';
import { type AgentExecutionEvent, ServerCallContext } from '@a2a-js/sdk/server';
import { MemoryTaskEventStream } from '../tasks/events/memory-task-event-stream';
import { A2aCall } from './a2a-call';
import type { TaskEventBus } from './task-event-bus';
import { TaskEventBusManager } from './task-event-bus.manager';

const TASK_ID = 'task-1';
const CONTEXT_ID = 'context-1';

function status(state: TaskState, timestamp: string): TaskStatus {
  return { state, timestamp, message: undefined };
}

function statusUpdate(value: TaskStatus): StreamResponse {
  return {
    payload: { $case: 'statusUpdate', value: { taskId: TASK_ID, contextId: CONTEXT_ID, status: value, metadata: {} } },
  };
}

function task(value: TaskStatus): Task {
  const message = {
    messageId: 'm1',
    role: Role.ROLE_USER,
    parts: [],
    taskId: TASK_ID,
    contextId: CONTEXT_ID,
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
  return { id: TASK_ID, contextId: CONTEXT_ID, status: value, history: [message], artifacts: [], metadata: {} };
}

const working = status(TaskState.TASK_STATE_WORKING, '2026-11-28T10:00:00.000Z');
const completed = status(TaskState.TASK_STATE_COMPLETED, '2026-11-28T10:00:00.005Z');
const artifact: StreamResponse = {
  payload: {
    $case: 'artifactUpdate',
    value: {
      taskId: TASK_ID,
      contextId: CONTEXT_ID,
      artifact: { artifactId: 'a1', name: 'echo', description: '', parts: [], metadata: {}, extensions: [] },
      append: false,
      lastChunk: true,
      metadata: {},
    },
  },
};
const turn: StreamResponse[] = [
  { payload: { $case: 'task', value: task(working) } },
  statusUpdate(working),
  artifact,
  statusUpdate(completed),
];

/** A send's bus on a fresh task stream, the events its listener hears, a promise of its end, and why it was interrupted if it was. */
async function sendBus(stored: () => Promise<Task | undefined>, { blocking = true, readsInProcess = true } = {}) {
  const stream = new MemoryTaskEventStream(100);
  const context = new ServerCallContext();
  A2aCall.of(context).blockingSend = blocking;
  const buses = new TaskEventBusManager({ events: stream, get: stored, readsInProcess });
  const bus: TaskEventBus = buses.createOrGetByTaskId(TASK_ID, context);
  const heard: AgentExecutionEvent[] = [];
  const finished = new Promise<AgentExecutionEvent[]>((resolve) => bus.on('finished', () => resolve(heard)));
  bus.on('event', (event) => heard.push(event));
  await bus.beginTurn(true);
  return { stream, bus, heard, finished, interruption: () => A2aCall.of(context).interruption };
}

const kinds = (events: AgentExecutionEvent[]) => events.map((event) => event.kind);

describe('TaskEventBus of a blocking send', () => {
  it('passes on the task as its turn stored it, alone, when the turn ends', async () => {
    const stored = task(completed);
    const { stream, finished } = await sendBus(async () => stored);
    await stream.publish(TASK_ID, turn, { close: true });

    expect(await finished).toEqual([{ kind: 'task', data: stored }]);
  });

  it('passes on every event of the turn when the stored task is not the one the turn ended with', async () => {
    const { stream, finished } = await sendBus(async () => task(working));
    await stream.publish(TASK_ID, turn, { close: true });

    expect(kinds(await finished)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
  });

  it('passes on every event of the turn when the task cannot be read, and the send answers from them', async () => {
    const { stream, finished, interruption } = await sendBus(() => Promise.reject(new Error('ECONNREFUSED')));
    await stream.publish(TASK_ID, turn, { close: true });

    expect(kinds(await finished)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    expect(interruption()).toBeUndefined();
  });

  it('passes on what it held, and nothing after, when it ends while its answer is read (a deadline)', async () => {
    let asked!: () => void;
    const reading = new Promise<void>((resolve) => (asked = resolve));
    let answer!: (task: Task) => void;
    const { stream, bus, heard, finished } = await sendBus(() => {
      asked();
      return new Promise<Task>((resolve) => (answer = resolve));
    });
    await stream.publish(TASK_ID, turn, { close: true });
    await reading;
    bus.end();
    expect(kinds(await finished)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);

    answer(task(completed));
    // The read's continuation runs in microtasks, all of which run before the next macrotask.
    await new Promise(setImmediate);
    expect(heard).toHaveLength(4);
  });

  it('passes on at once a request for authorization, which the SDK answers with, and what came before it', async () => {
    const { stream, bus, heard } = await sendBus(async () => undefined);
    const authRequested = new Promise<void>((resolve) =>
      bus.on(
        'event',
        (event) =>
          event.kind === 'statusUpdate' && event.data.status?.state === TaskState.TASK_STATE_AUTH_REQUIRED && resolve(),
      ),
    );
    await stream.publish(TASK_ID, [
      ...turn.slice(0, 2),
      statusUpdate(status(TaskState.TASK_STATE_AUTH_REQUIRED, '2026-11-28T10:00:00.003Z')),
    ]);
    await authRequested;

    expect(kinds(heard)).toEqual(['task', 'statusUpdate', 'statusUpdate']);
  });

  it.each([
    ['a send that does not block', { blocking: false }],
    ['a blocking send whose task store is a round trip away', { readsInProcess: false }],
  ])('holds nothing back for %s', async (_, options) => {
    const { stream, finished } = await sendBus(async () => task(completed), options);
    await stream.publish(TASK_ID, turn, { close: true });

    expect(kinds(await finished)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
  });
});
