/**
 * TurnRunner on embedded mode's memory stores: whatever its executor does, a turn ends in a state a
 * client can see, in the store and on the task's stream, and a turn whose task could not be stored
 * says so. No Postgres, no Redis; the write retry deadline passes on a fake clock.
 */
import { SendMessageRequest, type Task, TaskState } from '@a2a-js/sdk';
import { type ExecutionEventBus, RequestContext, ResultManager, type ServerCallContext } from '@a2a-js/sdk/server';
import type { TestingModule } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import type { AgentTurn, AgentTurnExecutor } from '../../../src/agents/agent-executor.interface';
import { STOPPED_TEXT, TurnRunner } from '../../../src/agents/turns/turn-runner.service';
import type { AgentTurnPayload, CallerScope, JobAttempt } from '../../../src/queue/queue.constants';
import { MemoryTaskStore } from '../../../src/task-store/memory-task-store';
import type { TaskWrite } from '../../../src/task-store/task-store.interface';
import { CANCEL_SIGNALS, type CancelSignals } from '../../../src/tasks/cancel/cancel-signals.interface';
import { callContextOf } from '../../../src/tasks/caller-scope';
import { SnapshotBuffer } from '../../../src/tasks/lifecycle/snapshot-buffer';
import { TaskLifecycle } from '../../../src/tasks/lifecycle/task-lifecycle.service';
import {
  NOT_RECORDED_TEXT,
  NOT_STORED_TEXT,
  TurnNotRecordedError,
  wasNeverStored,
} from '../../../src/tasks/lifecycle/turn-not-recorded.error';
import { partsText, textPart } from '../../../src/common/parts';
import { TurnPublisher } from '../../../src/tasks/lifecycle/turn-publisher';
import { replayTurn } from '../../../src/tasks/lifecycle/turn-replay';
import { TaskView } from '../../../src/tasks/task-view';
import { userMessage } from '../../support/sdk-client';
import { embeddedTurns } from '../../support/embedded-turns';

/** The memory task store, whose writes fail while it is `down`, as Postgres's do while it is unreachable. */
class TaskStoreGoingDown extends MemoryTaskStore {
  down = false;

  override saveUnlessEnded(task: Task, context: ServerCallContext): Promise<TaskWrite> {
    return this.whileUp(() => super.saveUnlessEnded(task, context));
  }

  override saveUnlessTurnRecorded(task: Task, messageId: string, context: ServerCallContext): Promise<TaskWrite> {
    return this.whileUp(() => super.saveUnlessTurnRecorded(task, messageId, context));
  }

  private whileUp(write: () => Promise<TaskWrite>): Promise<TaskWrite> {
    return this.down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : write();
  }
}

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const caller: CallerScope = { tenant: '', userName: 'tester', authenticated: true };
const context = callContextOf(caller);
const FIRST: JobAttempt = { attemptsStarted: 1 };
const WRITE_RETRY_SECS = 30;

/** A turn's job as the API queues it for a send to `agent` that starts a task, and the request as the SDK has it. */
function send(agent: string): { payload: AgentTurnPayload; requestContext: RequestContext } {
  const [taskId, contextId] = [randomUUID(), randomUUID()];
  const request = userMessage('hello', { taskId, contextId });
  return {
    payload: {
      agent,
      taskId,
      contextId,
      request: SendMessageRequest.toJSON(request),
      caller,
      announced: false,
      newTask: true,
    },
    requestContext: new RequestContext(request, taskId, contextId, context),
  };
}

/** What a status says: its state and its text. */
const statusOf = (task: Task | undefined) => ({
  state: task?.status?.state,
  text: partsText(task?.status?.message?.parts ?? []),
});

describe('TurnRunner', () => {
  const store = new TaskStoreGoingDown();
  /** What the agent does in its turn, set by each test; both agents below run it. */
  const turn = jest.fn<Promise<void>, [AgentTurn, ExecutionEventBus]>();
  const executors: Record<string, AgentTurnExecutor> = {
    // Like echo and script agents: it only publishes.
    publisher: { actsOutsideTask: false, run: (agentTurn, bus) => turn(agentTurn, bus) },
    // Like LLM and gateway agents: it calls a model, a tool or another agent.
    actor: { actsOutsideTask: true, run: (agentTurn, bus) => turn(agentTurn, bus) },
  };
  let module: TestingModule;
  let runner: TurnRunner;
  let lifecycle: TaskLifecycle;
  let tasks: TaskView;
  let cancels: CancelSignals;

  beforeAll(async () => {
    module = await embeddedTurns(executors, { store, tasks: { write_retry_secs: WRITE_RETRY_SECS } });
    runner = module.get(TurnRunner);
    lifecycle = module.get(TaskLifecycle);
    tasks = module.get(TaskView);
    cancels = module.get(CANCEL_SIGNALS);
  });

  afterAll(() => module.close());

  beforeEach(() => {
    store.down = false;
    turn.mockReset();
  });

  /** The task as a client following its stream has it: the turn's events folded by the SDK's ResultManager. */
  async function streamed(taskId: string): Promise<Task | undefined> {
    const snapshot = new SnapshotBuffer(undefined);
    await replayTurn(tasks.events, taskId, new ResultManager(snapshot, context));
    return snapshot.current;
  }

  /** A send whose task the API recorded as submitted and announced (a non-blocking send), its turn queued. */
  async function announcedSend(agent: string): Promise<{ payload: AgentTurnPayload; requestContext: RequestContext }> {
    const { payload, requestContext } = send(agent);
    await lifecycle.announce(requestContext, (await lifecycle.submit(requestContext)).task);
    return { payload: { ...payload, announced: true }, requestContext };
  }

  /** A turn that starts working, then waits for its signal to abort, and says when it has started. */
  function untilAborted(): Promise<void> {
    const started = deferred();
    turn.mockImplementation(async ({ context: requestContext, signal }, bus) => {
      new TurnPublisher(bus, requestContext).working(requestContext);
      started.resolve();
      await new Promise((aborted) => signal.addEventListener('abort', aborted));
    });
    return started.promise;
  }

  it("records the turn's events: the store and the task's stream hold the task as the turn ended it", async () => {
    turn.mockImplementation(async ({ context: requestContext }, bus) => {
      const publish = new TurnPublisher(bus, requestContext);
      publish.working(requestContext);
      publish.artifact({ artifactId: 'a1', parts: [textPart('hello back')], lastChunk: true });
      publish.status(TaskState.TASK_STATE_COMPLETED, 'done');
    });
    const { payload } = send('publisher');

    await runner.run(payload, FIRST);

    const stored = await tasks.get(payload.taskId, context);
    expect(statusOf(stored)).toEqual({ state: TaskState.TASK_STATE_COMPLETED, text: 'done' });
    expect(stored?.artifacts.map((artifact) => partsText(artifact.parts))).toEqual(['hello back']);
    expect(await streamed(payload.taskId)).toEqual(stored);
  });

  it.each([
    ['after its first events', true],
    ['before publishing anything', false],
  ])('ends the task failed, naming the error, when the executor throws %s', async (_, publishesFirst) => {
    turn.mockImplementation(async ({ context: requestContext }, bus) => {
      if (publishesFirst) new TurnPublisher(bus, requestContext).working(requestContext);
      throw new Error('the model is unreachable');
    });
    const { payload } = send('publisher');

    await runner.run(payload, FIRST);

    const failed = { state: TaskState.TASK_STATE_FAILED, text: 'Agent error: the model is unreachable' };
    expect(statusOf(await tasks.get(payload.taskId, context))).toEqual(failed);
    expect(statusOf(await streamed(payload.taskId))).toEqual(failed);
  });

  it('ends the task failed when the executor returns without a final state', async () => {
    turn.mockImplementation(async ({ context: requestContext }, bus) =>
      new TurnPublisher(bus, requestContext).working(requestContext),
    );
    const { payload } = send('publisher');

    await runner.run(payload, FIRST);

    expect(statusOf(await tasks.get(payload.taskId, context))).toEqual({
      state: TaskState.TASK_STATE_FAILED,
      text: 'The agent ended its turn without a final state.',
    });
  });

  it('fails a turn of an agent the worker does not know, saying which', async () => {
    const { payload } = send('nobody');

    await runner.run(payload, FIRST);

    expect(statusOf(await tasks.get(payload.taskId, context))).toEqual({
      state: TaskState.TASK_STATE_FAILED,
      text: 'No agent named "nobody" is configured on the worker.',
    });
  });

  it('ends the turn canceled when a cancel arrives while its agent runs', async () => {
    const started = untilAborted();
    const { payload } = send('publisher');

    const running = runner.run(payload, FIRST);
    await started;
    await cancels.request(payload.taskId);
    await running;

    const canceled = { state: TaskState.TASK_STATE_CANCELED, text: 'Task canceled.' };
    expect(statusOf(await tasks.get(payload.taskId, context))).toEqual(canceled);
    expect(statusOf(await streamed(payload.taskId))).toEqual(canceled);
  });

  it('ends the turn canceled without running its agent when the cancel came before the turn began', async () => {
    const { payload } = await announcedSend('publisher');
    await cancels.request(payload.taskId);

    await runner.run(payload, FIRST);

    expect(turn).not.toHaveBeenCalled();
    expect(statusOf(await tasks.get(payload.taskId, context))).toEqual({
      state: TaskState.TASK_STATE_CANCELED,
      text: 'Task canceled.',
    });
  });

  it('fails the turn naming the stop when the process stops under it (embedded mode)', async () => {
    const started = untilAborted();
    const { payload } = send('publisher');
    const stop = new AbortController();

    const running = runner.run(payload, { attemptsStarted: 1, stopping: stop.signal });
    await started;
    stop.abort();
    await running;

    expect(statusOf(await tasks.get(payload.taskId, context))).toEqual({
      state: TaskState.TASK_STATE_FAILED,
      text: STOPPED_TEXT,
    });
  });

  it('fails a turn run again after its worker died, without running it twice, when its agent cannot resume it', async () => {
    const { payload } = await announcedSend('publisher');

    await runner.run(payload, { attemptsStarted: 2 });

    expect(turn).not.toHaveBeenCalled();
    expect(statusOf(await tasks.get(payload.taskId, context))).toEqual({
      state: TaskState.TASK_STATE_FAILED,
      text: 'The worker running this task stopped before the turn finished.',
    });
  });

  it.each([
    [
      'stores it as submitted before running an agent that acts outside its task',
      'actor',
      TaskState.TASK_STATE_SUBMITTED,
    ],
    ['leaves it to the first batch of events of an agent that only publishes', 'publisher', undefined],
  ])("of a new task's first turn, %s", async (_, agent, stateWhenAgentRuns) => {
    let seen: Task | undefined;
    turn.mockImplementation(async ({ context: requestContext }, bus) => {
      seen = await tasks.get(requestContext.taskId, context);
      const publish = new TurnPublisher(bus, requestContext);
      publish.working(requestContext);
      publish.status(TaskState.TASK_STATE_COMPLETED);
    });
    const { payload } = send(agent);

    await runner.run(payload, FIRST);

    expect(seen?.status?.state).toBe(stateWhenAgentRuns);
    expect((await tasks.get(payload.taskId, context))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it.each([
    ['an agent that acts outside its task, which never runs', 'actor', false],
    ['an agent that only publishes, whose first batch is refused', 'publisher', true],
  ])('reports a new task whose first write fails as never stored: %s', async (_, agent, agentRuns) => {
    turn.mockImplementation(async ({ context: requestContext }, bus) =>
      new TurnPublisher(bus, requestContext).working(requestContext),
    );
    const { payload } = send(agent);
    store.down = true;

    const error = await runner.run(payload, FIRST).catch((thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(TurnNotRecordedError);
    expect(turn).toHaveBeenCalledTimes(agentRuns ? 1 : 0);
    const told = await streamed(payload.taskId);
    expect(statusOf(told)).toEqual({ state: TaskState.TASK_STATE_FAILED, text: NOT_STORED_TEXT });
    expect(wasNeverStored(told!)).toBe(true);
  });

  describe('with a fake clock', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it("fails its job once the store has refused the turn's writes for tasks.write_retry_secs, telling the stream it was not saved", async () => {
      turn.mockImplementation(async ({ context: requestContext }, bus) =>
        new TurnPublisher(bus, requestContext).status(TaskState.TASK_STATE_COMPLETED),
      );
      const { payload } = await announcedSend('publisher');
      store.down = true;

      let outcome: unknown;
      void runner.run(payload, FIRST).then(
        () => (outcome = 'completed'),
        (error: unknown) => (outcome = error),
      );
      await jest.advanceTimersByTimeAsync((WRITE_RETRY_SECS - 1) * 1000);
      expect(outcome).toBeUndefined();
      await jest.advanceTimersByTimeAsync(2_000);

      expect(outcome).toBeInstanceOf(TurnNotRecordedError);
      expect(outcome).toMatchObject({ neverStored: false });
      const told = await streamed(payload.taskId);
      expect(statusOf(told)).toEqual({ state: TaskState.TASK_STATE_FAILED, text: NOT_RECORDED_TEXT });
      expect(wasNeverStored(told!)).toBe(false);
      // The orphaned-task sweep settles the stored task once the store is back.
      expect((await tasks.get(payload.taskId, context))?.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    });
  });
});
