import { SendMessageRequest, type Task } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { attachTaskAgent, callerScopeOf, type CancelSignals, type TaskLifecycle } from '../tasks';
import { agentTurnJobId } from '../queue/agent-turn-job-id';
import type { JobQueue } from '../queue/job-queue.interface';
import { JobName } from '../queue/queue.constants';
import { A2aCall } from './a2a-call';
import type { QueuedTurnWatch } from './queued-turn-watch';
import { type RequestScopedTaskStore } from './request-scoped-task-store';
import { ServiceUnavailableError } from './service-unavailable.error';
import type { TaskEventBus } from './task-event-bus';

/** The status of a task that was recorded but whose turn could not be queued. */
export const NOT_QUEUED_TEXT =
  'The message could not be handed to the agent while the service was unavailable; send it again.';

/**
 * The SDK's executor seat on the API side: a turn is not run here but handed to the queue, and its
 * events come back through the task's event stream. It enqueues only once the bus knows where in the
 * stream the turn begins, so no event can slip past it. A non-blocking send must answer with the
 * task at once, whether or not a worker is up: its task is recorded as submitted here first.
 *
 * A send is accepted whole or refused: while the queue's Redis is known to be down it is refused
 * before anything is written; when a store fails on the way (the stream's position, the
 * announcement, the enqueue), the caller gets ServiceUnavailableError, and a task already recorded
 * for it ends `failed` rather than `submitted` with no turn to run it.
 */
export class QueuedAgentExecutor implements AgentExecutor {
  private readonly logger = new Logger(QueuedAgentExecutor.name);

  constructor(
    private readonly agentName: string,
    private readonly queue: JobQueue,
    private readonly cancelSignals: CancelSignals,
    private readonly lifecycle: TaskLifecycle,
    private readonly requestTasks: RequestScopedTaskStore,
    private readonly queuedTurns: QueuedTurnWatch,
  ) {}

  async execute(requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> {
    attachTaskAgent(requestContext.context, this.agentName);
    const call = A2aCall.of(requestContext.context);
    // The bus the SDK hands over is the call's own (TaskEventBusManager), but for callers that bring theirs.
    const ours = call.buses.get(requestContext.taskId);
    try {
      const announced = await this.accept(requestContext, bus, ours);
      if (!announced) call.unannounced = requestContext;
      call.accept(requestContext.userMessage.messageId);
      if (ours) this.queuedTurns.watch(requestContext, this.agentName, ours);
    } catch (error) {
      const { taskId, userMessage } = requestContext;
      this.logger.warn(
        { taskId, agent: this.agentName, err: (error as Error).message },
        'send refused: its turn could not be queued',
      );
      const refusal = error instanceof ServiceUnavailableError ? error : sendRefusal(error);
      if (!call.refuse(userMessage.messageId, refusal)) throw refusal;
      // Its listeners finish, and it reads no more: a read failing later would pass for the send's outcome.
      if (ours) ours.end();
      else bus.finished();
    }
  }

  /**
   * Why a send would be refused before anything of it is written: the queue's Redis is known to be
   * down, and BullMQ would hold the turn until it is back. Undefined when the turn can be queued.
   */
  refusalBeforeWriting(): ServiceUnavailableError | undefined {
    return this.queue.isReachable(JobName.AgentTurn)
      ? undefined
      : sendRefusal(new Error('Redis is unreachable: the turn cannot be queued'));
  }

  /** Asks the running turn to stop; it publishes `canceled` itself. (Requests go through TaskCanceller.) */
  async cancelTask(taskId: string): Promise<void> {
    await this.cancelSignals.request(taskId);
  }

  /**
   * Records as submitted the task of a send accepted in `context` whose turn was queued without that
   * (a blocking send), and returns the task as stored: what a blocking send past its deadline
   * answers when no worker has taken its turn yet. Undefined when there is no such send. Its turn is
   * queued, so it is not put on the task's stream (the worker does that), and a worker that took the
   * turn meanwhile keeps its task as it recorded it (TaskLifecycle.submit). A task the store cannot
   * take refuses the send, retryably, and its turn is taken back from the queue: a resend must not
   * find the first one run.
   */
  async announceQueued(context: ServerCallContext): Promise<Task | undefined> {
    const call = A2aCall.of(context);
    const requestContext = call.unannounced;
    if (!requestContext) return undefined;
    call.unannounced = undefined;
    try {
      return (await this.lifecycle.submit(requestContext)).task;
    } catch (error) {
      await this.withdrawTurn(requestContext);
      throw call.refuseAtOnce(sendRefusal(error));
    }
  }

  private async withdrawTurn({ taskId, userMessage }: RequestContext): Promise<void> {
    const jobId = agentTurnJobId(taskId, userMessage.messageId);
    const withdrawn = await this.queue.withdraw(JobName.AgentTurn, jobId).catch(() => false);
    // Such a turn's first write fails too while the store is down, and then it never acts (TurnRunner).
    if (!withdrawn) this.logger.warn({ taskId }, 'a worker holds the turn of a send refused for its store');
  }

  /** Announces a non-blocking send's task, then queues the turn; throws when a store fails on the way. Returns whether the task was announced. */
  private async accept(
    requestContext: RequestContext,
    bus: ExecutionEventBus,
    ours: TaskEventBus | undefined,
  ): Promise<boolean> {
    const refusal = this.refusalBeforeWriting();
    if (refusal) throw refusal;
    const newTask = requestContext.task === undefined;
    if (newTask) this.requestTasks.begin(requestContext.taskId, requestContext.context);
    if (ours) await ours.beginTurn(newTask);
    const announced = requestContext.request.configuration?.returnImmediately === true;
    let submitted: Task | undefined;
    try {
      if (announced) {
        const write = await this.lifecycle.submit(requestContext);
        if (write.written) await this.lifecycle.announce(requestContext, (submitted = write.task));
        // A send of the same message again: its turn is queued or recorded already, and this send gets the task as it stands.
        else bus.publish(AgentEvent.task(write.task));
      }
      await this.queue.enqueue(
        JobName.AgentTurn,
        {
          announced,
          newTask,
          withWebhook: requestContext.request.configuration?.taskPushNotificationConfig !== undefined,
          agent: this.agentName,
          taskId: requestContext.taskId,
          contextId: requestContext.contextId,
          request: SendMessageRequest.toJSON(withoutWebhook(requestContext.request)),
          caller: callerScopeOf(requestContext.context),
          idUnknownUntil: A2aCall.of(requestContext.context).idUnknownUntil,
        },
        { jobId: agentTurnJobId(requestContext.taskId, requestContext.userMessage.messageId) },
      );
    } catch (error) {
      if (submitted) await this.settleUnqueued(requestContext, submitted);
      throw error;
    }
    return announced;
  }

  /** A task recorded as submitted whose turn was not queued ends failed, so that it does not wait forever. */
  private async settleUnqueued(requestContext: RequestContext, submitted: Task): Promise<void> {
    await this.lifecycle.fail(submitted, requestContext.context, NOT_QUEUED_TEXT).catch((error: Error) => {
      // The orphaned-task sweep settles it once the store is back.
      this.logger.warn(
        { taskId: requestContext.taskId, err: error.message },
        'could not mark the unqueued task failed',
      );
    });
  }
}

function sendRefusal(cause: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError('The message could not be accepted', cause);
}

/**
 * The request as the turn needs it. Its webhook (URL, token, credentials) is already in the push
 * config store, where deliveries read it; a job is kept a day when it fails, and carries no secret.
 */
function withoutWebhook(request: SendMessageRequest): SendMessageRequest {
  if (!request.configuration?.taskPushNotificationConfig) return request;
  return { ...request, configuration: { ...request.configuration, taskPushNotificationConfig: undefined } };
}
