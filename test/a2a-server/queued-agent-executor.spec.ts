/**
 * QueuedAgentExecutor on embedded mode's memory stores and in-process queue, where TurnRunner takes
 * the turns it queues: a send is handed to the queue under its turn's job id, its turn's events
 * come back to the request's bus through the task's stream, a cancel reaches the running turn, and
 * a send the queue cannot take is refused, leaving no task waiting for a turn. No Postgres, no Redis.
 */
import { SendMessageRequest, TaskState } from '@a2a-js/sdk';
import {
  type AgentExecutionEvent,
  DefaultExecutionEventBus,
  type ExecutionEventBus,
  RequestContext,
  ServerCallContext,
} from '@a2a-js/sdk/server';
import type { TestingModule } from '@nestjs/testing';
import { randomUUID } from 'node:crypto';
import { A2aCall } from '../../src/a2a-server/a2a-call';
import { NOT_QUEUED_TEXT, QueuedAgentExecutor } from '../../src/a2a-server/queued-agent-executor';
import { QueuedTurnWatch } from '../../src/a2a-server/queued-turn-watch';
import { RequestScopedTaskStore } from '../../src/a2a-server/request-scoped-task-store';
import { ServiceUnavailableError } from '../../src/a2a-server/service-unavailable.error';
import { TaskEventBusManager } from '../../src/a2a-server/task-event-bus.manager';
import type { AgentTurn } from '../../src/agents/agent-executor.interface';
import { agentTurnJobId } from '../../src/queue/agent-turn-job-id';
import { type InProcessJobQueue } from '../../src/queue/in-process-job-queue';
import { JOB_QUEUE } from '../../src/queue/job-queue.interface';
import { JobName } from '../../src/queue/queue.constants';
import { CANCEL_SIGNALS } from '../../src/tasks/cancel/cancel-signals.interface';
import { TaskLifecycle } from '../../src/tasks/lifecycle/task-lifecycle.service';
import { partsText, textPart } from '../../src/common/parts';
import { TurnPublisher } from '../../src/tasks/lifecycle/turn-publisher';
import { TaskView } from '../../src/tasks/task-view';
import { userMessage } from '../support/sdk-client';
import { embeddedTurns } from '../support/embedded-turns';

const AGENT = 'helper';

/** What the agent does in its turn: working, an artifact, completed. */
async function answers({ context }: AgentTurn, bus: ExecutionEventBus): Promise<void> {
  const publish = new TurnPublisher(bus, context);
  publish.working(context);
  publish.artifact({ artifactId: 'a1', parts: [textPart('hello back')], lastChunk: true });
  publish.status(TaskState.TASK_STATE_COMPLETED);
}

describe('QueuedAgentExecutor', () => {
  const turn = jest.fn<Promise<void>, [AgentTurn, ExecutionEventBus]>();
  let module: TestingModule;
  let queue: InProcessJobQueue;
  let tasks: TaskView;
  let buses: TaskEventBusManager;
  let executor: QueuedAgentExecutor;

  beforeAll(async () => {
    module = await embeddedTurns({
      [AGENT]: { actsOutsideTask: false, run: (agentTurn, bus) => turn(agentTurn, bus) },
    });
    queue = module.get(JOB_QUEUE);
    tasks = module.get(TaskView);
    const lifecycle = module.get(TaskLifecycle);
    // As AgentHandlers builds an agent's executor.
    buses = new TaskEventBusManager(tasks);
    executor = new QueuedAgentExecutor(
      AGENT,
      queue,
      module.get(CANCEL_SIGNALS),
      lifecycle,
      new RequestScopedTaskStore(tasks),
      new QueuedTurnWatch(queue, lifecycle),
    );
  });

  afterAll(() => module.close());

  beforeEach(() => {
    jest.restoreAllMocks();
    turn.mockReset().mockImplementation(answers);
  });

  /**
   * A send as the request handler hands it to the executor: the call's context (waiting for the
   * executor's verdict), the SDK's request context, and the call's bus, with what it hears. Not
   * a blocking send (whose bus holds the turn's events back for the task as stored): its bus
   * passes on every event of the turn.
   */
  function send(configuration: Partial<SendMessageRequest['configuration']> = {}) {
    const [taskId, contextId] = [randomUUID(), randomUUID()];
    const context = new ServerCallContext({ user: { isAuthenticated: true, userName: 'tester' } });
    const request: SendMessageRequest = {
      ...userMessage('hello', { taskId, contextId }),
      configuration: {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: false,
        ...configuration,
      },
    };
    const call = A2aCall.of(context);
    call.idUnknownUntil = Date.now() + 5_000;
    const requestContext = new RequestContext(request, taskId, contextId, context);
    const bus = buses.createOrGetByTaskId(taskId, context);
    const heard: AgentExecutionEvent[] = [];
    bus.on('event', (event) => heard.push(event));
    const finished = new Promise<AgentExecutionEvent[]>((resolve) => bus.on('finished', () => resolve(heard)));
    const verdict = call.watchSend(request.message!.messageId, async () => 'accepted');
    return { taskId, contextId, context, request, requestContext, bus, finished, verdict };
  }

  const kinds = (events: AgentExecutionEvent[]) =>
    events.map((event) => (event.kind === 'statusUpdate' ? event.data.status?.state : event.kind));

  it('hands the turn to the queue under the job id of its task and message, with what the worker needs', async () => {
    const enqueue = jest.spyOn(queue, 'enqueue');
    const { taskId, contextId, context, request, requestContext, bus, finished, verdict } = send();

    await executor.execute(requestContext, bus);

    await expect(verdict).resolves.toBe('accepted');
    expect(enqueue).toHaveBeenCalledWith(
      JobName.AgentTurn,
      {
        announced: false,
        newTask: true,
        withWebhook: false,
        agent: AGENT,
        taskId,
        contextId,
        request: SendMessageRequest.toJSON(request),
        caller: { tenant: '', userName: 'tester', authenticated: true, agent: AGENT },
        idUnknownUntil: A2aCall.of(context).idUnknownUntil,
      },
      { jobId: agentTurnJobId(taskId, request.message!.messageId) },
    );
    await finished;
  });

  it("brings the turn's events, as the agent published them, to the request's bus", async () => {
    const { taskId, context, requestContext, bus, finished } = send();

    await executor.execute(requestContext, bus);

    expect(kinds(await finished)).toEqual([
      'task',
      TaskState.TASK_STATE_WORKING,
      'artifactUpdate',
      TaskState.TASK_STATE_COMPLETED,
    ]);
    expect((await tasks.get(taskId, context))?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("records a non-blocking send's task as submitted, and announces it, before its turn is queued", async () => {
    const { taskId, context, requestContext, bus, finished } = send({ returnImmediately: true });
    let storedWhenQueued: TaskState | undefined;
    const enqueue = queue.enqueue.bind(queue);
    jest.spyOn(queue, 'enqueue').mockImplementation(async (name, payload, options) => {
      storedWhenQueued = (await tasks.get(taskId, context))?.status?.state;
      return enqueue(name, payload, options);
    });

    await executor.execute(requestContext, bus);

    expect(storedWhenQueued).toBe(TaskState.TASK_STATE_SUBMITTED);
    const heard = await finished;
    expect(heard[0]).toMatchObject({
      kind: 'task',
      data: { id: taskId, status: { state: TaskState.TASK_STATE_SUBMITTED } },
    });
    expect(kinds(heard).at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('keeps the webhook out of the job, which a failed job keeps a day: the push config store holds it', async () => {
    const enqueue = jest.spyOn(queue, 'enqueue');
    const webhook = {
      tenant: '',
      id: 'hook',
      taskId: '',
      url: 'https://example.com/hook',
      token: 'secret',
      authentication: undefined,
    };
    const { requestContext, bus, finished } = send({ taskPushNotificationConfig: webhook });

    await executor.execute(requestContext, bus);

    const [, payload] = enqueue.mock.calls[0];
    expect(payload).toMatchObject({ withWebhook: true });
    expect(JSON.stringify(payload)).not.toContain('secret');
    await finished;
  });

  it('cancels the running turn, which the request hears end canceled', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    turn.mockImplementation(async ({ context, signal }, bus) => {
      new TurnPublisher(bus, context).working(context);
      started();
      await new Promise((aborted) => signal.addEventListener('abort', aborted));
    });
    const { taskId, context, requestContext, bus, finished } = send();

    await executor.execute(requestContext, bus);
    await running;
    await executor.cancelTask(taskId);

    expect(kinds(await finished)).toEqual(['task', TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_CANCELED]);
    expect((await tasks.get(taskId, context))?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  describe('when the queue cannot take the turn', () => {
    it('refuses the send before writing anything while the queue is known to be unreachable', async () => {
      jest.spyOn(queue, 'isReachable').mockReturnValue(false);
      const enqueue = jest.spyOn(queue, 'enqueue');
      const { taskId, context, requestContext, bus, finished, verdict } = send({ returnImmediately: true });

      await executor.execute(requestContext, bus);

      await expect(verdict).rejects.toBeInstanceOf(ServiceUnavailableError);
      expect(await finished).toEqual([]);
      expect(enqueue).not.toHaveBeenCalled();
      expect(await tasks.get(taskId, context)).toBeUndefined();
    });

    it('throws the refusal to a caller that brings its own bus and waits for no verdict', async () => {
      jest.spyOn(queue, 'isReachable').mockReturnValue(false);
      const [taskId, contextId] = [randomUUID(), randomUUID()];
      const requestContext = new RequestContext(
        userMessage('hello', { taskId, contextId }),
        taskId,
        contextId,
        new ServerCallContext(),
      );

      await expect(executor.execute(requestContext, new DefaultExecutionEventBus())).rejects.toBeInstanceOf(
        ServiceUnavailableError,
      );
    });

    it("fails a non-blocking send's recorded task when its turn could not be queued, rather than leave it submitted", async () => {
      jest.spyOn(queue, 'enqueue').mockRejectedValueOnce(new Error('Connection is closed.'));
      const { taskId, context, requestContext, bus, finished, verdict } = send({ returnImmediately: true });

      await executor.execute(requestContext, bus);

      await expect(verdict).rejects.toBeInstanceOf(ServiceUnavailableError);
      await finished;
      expect(turn).not.toHaveBeenCalled();
      const stored = await tasks.get(taskId, context);
      expect({ state: stored?.status?.state, text: partsText(stored?.status?.message?.parts ?? []) }).toEqual({
        state: TaskState.TASK_STATE_FAILED,
        text: NOT_QUEUED_TEXT,
      });
    });
  });
});
