import {
  type AgentCard,
  type CancelTaskRequest,
  type GetExtendedAgentCardRequest,
  type GetTaskPushNotificationConfigRequest,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
  TaskState,
} from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import {
  ContentTypeNotSupportedError,
  ExtendedAgentCardNotConfiguredError,
  RequestMalformedError,
  TaskNotCancelableError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import {
  DefaultRequestHandler,
  type PushNotificationSender,
  type PushNotificationStore,
  type ServerCallContext,
  type TaskStore as A2aTaskStore,
} from '@a2a-js/sdk/server';
import { NOT_STORED_TEXT, type TaskCanceller, wasNeverStored } from '../tasks';
import { whenClientLeaves } from '../common/client-gone';
import { hasUnstorableText, pathOfUnstorableText } from '../common/storable-text';
import type { ServerResponse } from 'node:http';
import type { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { isTerminal, stateLabel } from '../common/task-states';
import { A2aCall } from './a2a-call';
import { DefaultPushConfigIdStore } from './default-push-config-id.store';
import type { QueuedAgentExecutor } from './queued-agent-executor';
import { namingStates, streamNamingStates, withStatesNamed } from './state-named-errors';
import { ServiceUnavailableError } from './service-unavailable.error';
import type { TaskEventBusManager } from './task-event-bus.manager';
import { type MessageLimits, messageLimitProblem } from './validation/message-limits';
import { acceptsOutputOf } from './validation/output-modes';
import { webhookUrlProblem } from './validation/webhook-url';

/** Webhooks are sent by the worker recording the turn, which sees every event even with no client attached. */
const WEBHOOKS_SENT_BY_WORKER: PushNotificationSender = { send: async () => undefined };

export interface HandlerParts {
  card: AgentCard;
  /** What authenticated callers get from GetExtendedAgentCard; the card must declare it. */
  extendedCard?: AgentCard;
  taskStore: A2aTaskStore;
  executor: QueuedAgentExecutor;
  /** How long a blocking send waits for its turn to end before answering with the task as it stands. */
  blockingTimeoutMs: number;
  buses: TaskEventBusManager;
  pushConfigs: PushNotificationStore;
  canceller: TaskCanceller;
  messageLimits: MessageLimits;
  /** Webhook URLs it refuses could never be delivered to: they are refused at registration. */
  outboundPolicy: OutboundUrlPolicy;
}

/**
 * The SDK's DefaultRequestHandler with what a multi-replica server adds: output-mode negotiation
 * (the spec's content-type error when the client accepts nothing the agent produces), sends refused
 * before they start when their task could not be stored, their message is past the size limits or
 * their webhook could never be reached, sends refused with ServiceUnavailableError when their turn
 * could not be queued, blocking sends answered by a deadline, a cancel that reaches a turn running
 * on any worker, or none, and calls and streams that fail with TaskStreamInterruptedError when they
 * stopped following their task before its turn ended, rather than answer as if it had. Every
 * dialect (JSON-RPC, HTTP+JSON, the seeds' routes, agent calls over MCP) comes here.
 */
export class SwitchboardRequestHandler extends DefaultRequestHandler {
  private readonly outputModes: string[];
  private readonly canceller: TaskCanceller;
  private readonly messageLimits: MessageLimits;
  private readonly outboundPolicy: OutboundUrlPolicy;
  private readonly buses: TaskEventBusManager;
  private readonly executor: QueuedAgentExecutor;
  private readonly blockingTimeoutMs: number;

  constructor(parts: HandlerParts) {
    const pushConfigs = new DefaultPushConfigIdStore(parts.pushConfigs);
    super(
      parts.card,
      parts.taskStore,
      parts.executor,
      parts.buses,
      pushConfigs,
      WEBHOOKS_SENT_BY_WORKER,
      parts.extendedCard,
    );
    this.outputModes = parts.card.defaultOutputModes;
    this.canceller = parts.canceller;
    this.messageLimits = parts.messageLimits;
    this.outboundPolicy = parts.outboundPolicy;
    this.buses = parts.buses;
    this.executor = parts.executor;
    this.blockingTimeoutMs = parts.blockingTimeoutMs;
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Task | Message> {
    await this.checkSend(params, context);
    this.startWaiting(context);
    const call = A2aCall.of(context);
    const blocking = !params.configuration?.returnImmediately;
    call.blockingSend = blocking;
    const send = () => this.buses.unlessInterrupted(context, super.sendMessage(params, context));
    const answer = call.watchSend(params.message?.messageId ?? '', send);
    if (blocking)
      return namingStates(
        this.beforeDeadline(answer, context).then((result) => this.refusedUnlessStored(result, context)),
      );
    const result = await namingStates(answer);
    // The SDK would follow the task until its turn ends, for nobody: the answer is given.
    if ('status' in result) this.buses.release(result.id, context);
    return result;
  }

  /**
   * Decides, once for the send, until when no client can know the id of a task it starts but from
   * its turn's events: half its deadline (a blocking send answers with its task by the deadline; a
   * stream's client learns it from the turn's first event), the other half left for clocks that
   * differ between this replica and the worker, which the turn's job tells.
   */
  private startWaiting(context: ServerCallContext): void {
    A2aCall.of(context).idUnknownUntil = Date.now() + this.blockingTimeoutMs / 2;
  }

  /**
   * A blocking send's answer, or once `blockingTimeoutMs` has passed the task as it stands: the
   * request stops following the turn, which goes on, and the SDK answers with the task as far as it
   * has seen it. Having seen none (no worker has taken the turn yet), it fails; the task is then
   * recorded as submitted, and that is the answer.
   */
  private async beforeDeadline(answer: Promise<Task | Message>, context: ServerCallContext): Promise<Task | Message> {
    let expired = false;
    const deadline = setTimeout(() => {
      expired = true;
      this.buses.releaseAll(context);
    }, this.blockingTimeoutMs);
    try {
      return await answer;
    } catch (error) {
      const queued = expired ? await this.executor.announceQueued(context) : undefined;
      if (!queued) throw error;
      return queued;
    } finally {
      clearTimeout(deadline);
    }
  }

  /** A blocking send's task that failed before it was ever stored does not exist: the send is refused, naming no task. */
  private refusedUnlessStored(result: Task | Message, context: ServerCallContext): Task | Message {
    if (!('status' in result) || !wasNeverStored(result)) return result;
    throw A2aCall.of(context).refuseAtOnce(
      new ServiceUnavailableError('The message could not be accepted', new Error(NOT_STORED_TEXT)),
    );
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    await this.checkSend(params, context);
    this.startWaiting(context);
    const events = this.buses.untilInterrupted(context, super.sendMessageStream(params, context));
    const first = await A2aCall.of(context)
      .watchSend(params.message?.messageId ?? '', () => events.next())
      .catch((error: unknown) => {
        // The SDK may fail before its executor ran (storing the send's webhook): its bus, never told where the turn begins, is ended here.
        this.buses.releaseAll(context);
        void events.return(undefined).catch(() => undefined);
        throw withStatesNamed(error);
      });
    if (first.done) return;
    try {
      yield first.value;
      yield* events;
    } finally {
      // A client gone after the first event: the SDK's stream must end too, releasing its bus.
      await events.return(undefined);
    }
  }

  /**
   * The SDK's resubscribe, whose first event (the task as stored, possibly a checkpoint behind the
   * stream or a batch ahead of it) is replaced by the task as the turn's stream shows it where the
   * bus starts reading: the subscriber sees the task as it is, then only later events.
   */
  override async *resubscribe(
    params: SubscribeToTaskRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const events = streamNamingStates(this.buses.untilInterrupted(context, super.resubscribe(params, context)));
    try {
      const stored = await events.next();
      if (stored.done) return;
      const current = await A2aCall.of(context).snapshot;
      yield current ? { payload: { $case: 'task', value: current } } : stored.value;
      yield* events;
    } finally {
      await events.return(undefined);
    }
  }

  /**
   * Stops following the tasks of the request made in `context` if its client goes before the answer
   * ends (or went already, while the request was on its way here): nobody waits for their turns, so
   * shutdown need not either.
   */
  releaseWhenClientLeaves(context: ServerCallContext, response: ServerResponse): void {
    whenClientLeaves(response, () => this.abandon(context));
  }

  /** The client of the request made in `context` has gone (a transport without a response to watch tells): its tasks are followed no more. */
  abandon(context: ServerCallContext): void {
    this.buses.abandon(context);
  }

  override async createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    this.checkStorable(params, context);
    await this.checkWebhook(params, 'params.url');
    return super.createTaskPushNotificationConfig(params, context);
  }

  /** Without a config id, the task's default config (DefaultPushConfigIdStore). */
  override getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    context: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return super.getTaskPushNotificationConfig(params.id ? params : { ...params, id: params.taskId }, context);
  }

  /** v0.3 has its own error for an agent without an extended card (-32007); v1.0 keeps the SDK's UnsupportedOperationError (-32004). */
  override async getAuthenticatedExtendedAgentCard(
    params: GetExtendedAgentCardRequest,
    context: ServerCallContext,
  ): Promise<AgentCard> {
    try {
      return await super.getAuthenticatedExtendedAgentCard(params, context);
    } catch (error) {
      if (!(error instanceof UnsupportedOperationError) || context.requestedVersion !== A2A_LEGACY_PROTOCOL_VERSION)
        throw error;
      throw new ExtendedAgentCardNotConfiguredError('This agent has no authenticated extended card.');
    }
  }

  override async cancelTask(params: CancelTaskRequest, context: ServerCallContext): Promise<Task> {
    const task = await this.getTask({ id: params.id, tenant: params.tenant }, context);
    if (isTerminal(task))
      throw new TaskNotCancelableError(`Task ${task.id} is ${stateLabel(task.status!.state)} and cannot be canceled.`);
    await this.canceller.cancel(task, context);
    const latest = await this.getTask({ id: params.id, tenant: params.tenant }, context);
    if (latest.status?.state !== TaskState.TASK_STATE_CANCELED) {
      throw new TaskNotCancelableError(`Task ${task.id} ended before it could be canceled.`);
    }
    return latest;
  }

  private async checkSend(params: SendMessageRequest, context: ServerCallContext): Promise<void> {
    // First: it reads no more of the message than the limits allow, where the next checks read all of it.
    const tooLarge = messageLimitProblem(params.message, this.messageLimits);
    if (tooLarge) throw new RequestMalformedError(tooLarge);
    this.checkStorable(params, context);
    this.checkOutputModes(params);
    const webhook = params.configuration?.taskPushNotificationConfig;
    if (!webhook) return;
    await this.checkWebhook(webhook, 'params.configuration.taskPushNotificationConfig.url');
    // The SDK stores a send's webhook before its executor can refuse the send: it is refused first.
    const refusal = this.executor.refusalBeforeWriting();
    if (refusal) throw A2aCall.of(context).refuseAtOnce(refusal);
  }

  private async checkWebhook(config: TaskPushNotificationConfig, field: string): Promise<void> {
    const problem = await webhookUrlProblem(this.outboundPolicy, config.url, field);
    if (problem) throw new RequestMalformedError(problem);
  }

  private checkStorable(params: object, context: ServerCallContext): void {
    const unstorable =
      pathOfUnstorableText(params, 'params') ?? (hasUnstorableText(context.tenant) ? 'tenant' : undefined);
    if (unstorable)
      throw new RequestMalformedError(
        `${unstorable}: must not contain U+0000 or unpaired surrogates, which cannot be stored.`,
      );
  }

  private checkOutputModes(params: SendMessageRequest): void {
    const accepted = params.configuration?.acceptedOutputModes ?? [];
    if (acceptsOutputOf(accepted, this.outputModes)) return;
    throw new ContentTypeNotSupportedError(
      `None of the accepted output modes (${accepted.join(', ')}) is produced by this agent, which offers ${this.outputModes.join(', ')}.`,
    );
  }
}
