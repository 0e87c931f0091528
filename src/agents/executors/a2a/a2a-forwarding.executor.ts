import { type Message, type SendMessageRequest, type StreamResponse } from '@a2a-js/sdk';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { ExternalAgentUnavailableError } from '../../../a2a-client/a2a-client.errors';
import type { ExternalAgent } from '../../../a2a-client/external-agent';
import type { A2aClientSettings } from '../../../config/external-agent.schema';
import { followRemote, sendToRemote } from '../../../a2a-client/remote-task-events';
import type { AgentTurn, AgentTurnExecutor } from '../../agent-executor.interface';
import { remoteTaskLinkOf } from './remote-task-link';
import { RemoteTaskRelay } from './remote-task-relay';
import type { TaskActivity } from '../../../tasks';

/**
 * A gateway agent's turn: the caller's message is forwarded to an external agent (continuing the
 * remote task this local task is linked to, if any) and the remote task's events are relayed as
 * they arrive, until it ends or waits for input. Cancelling the local task cancels the remote one;
 * so does the task's deadline (`task_timeout_secs`), which then fails the turn naming the agent.
 * A worker that picks the turn up after a crash follows the remote task again (`resume`).
 */
export class A2aForwardingExecutor implements AgentTurnExecutor {
  readonly actsOutsideTask = true;
  private readonly logger = new Logger(A2aForwardingExecutor.name);

  constructor(
    private readonly target: ExternalAgent,
    private readonly settings: A2aClientSettings,
    private readonly activity: TaskActivity,
  ) {}

  run({ context, signal }: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    const link = remoteTaskLinkOf(context.task);
    // The caller's webhooks are Switchboard's to call, so no push config travels on.
    const request: SendMessageRequest = {
      tenant: '',
      message: forwardedMessage(context.userMessage, link?.task_id ?? '', link?.context_id ?? ''),
      configuration: {
        acceptedOutputModes: context.request.configuration?.acceptedOutputModes ?? [],
        taskPushNotificationConfig: undefined,
        returnImmediately: false,
      },
      metadata: context.request.metadata,
    };
    const relay = new RemoteTaskRelay(bus, context, this.target.name, this.activity);
    return this.relayUntilDone(relay, (within) => sendToRemote(this.target, request, this.settings, within), signal);
  }

  resume({ context, signal }: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    const link = remoteTaskLinkOf(context.task);
    if (!link) throw new Error('the worker running this task stopped before the external agent had named its task');
    const relay = new RemoteTaskRelay(bus, context, this.target.name, this.activity, context.task);
    return this.relayUntilDone(
      relay,
      (within) => followRemote(this.target, link.task_id, this.settings, within),
      signal,
    );
  }

  private async relayUntilDone(
    relay: RemoteTaskRelay,
    events: (signal: AbortSignal) => AsyncIterable<StreamResponse>,
    signal: AbortSignal,
  ): Promise<void> {
    const timeoutMs = this.target.config.task_timeout_secs * 1000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const following = untilRemoteTaskNamed(
      signal,
      () => relay.remoteTaskId !== undefined,
      this.target.config.timeout_secs * 1000,
    );
    let remoteTaskId: string | undefined = relay.remoteTaskId;
    try {
      for await (const event of events(AbortSignal.any([following, deadline]))) {
        if (signal.aborted) {
          // Canceled before the external agent named its task: this event names it, to cancel it there.
          remoteTaskId ??= remoteTaskIdOf(event);
          break;
        }
        relay.relay(event);
        remoteTaskId = relay.remoteTaskId;
      }
      if (!signal.aborted) return;
    } catch (error) {
      if (!signal.aborted && !deadline.aborted) throw error;
    }
    if (remoteTaskId) await this.cancelRemote(remoteTaskId);
    if (signal.aborted) throw signal.reason;
    throw new ExternalAgentUnavailableError(
      this.target.name,
      `the task did not end within ${timeoutMs / 1000} s (task_timeout_secs); it was canceled there`,
    );
  }

  /** Best effort: the local task ends either way, and the remote agent may have ended the task first. */
  private async cancelRemote(taskId: string): Promise<void> {
    try {
      const client = await this.target.client();
      await client.cancelTask(
        { id: taskId, tenant: '', metadata: {} },
        { signal: AbortSignal.timeout(this.target.config.timeout_secs * 1000) },
      );
      this.logger.log({ agent: this.target.name, remoteTaskId: taskId }, 'remote task canceled');
    } catch (error) {
      this.logger.warn(
        { agent: this.target.name, remoteTaskId: taskId, err: (error as Error).message },
        'could not cancel the remote task',
      );
    }
  }
}

/**
 * Aborts when `canceled` does, unless the external agent has not named its task yet: a send cut off
 * then would leave that task running there with nobody to cancel it. The send goes on until its
 * first event names the task, for `graceMs` at most.
 */
function untilRemoteTaskNamed(canceled: AbortSignal, named: () => boolean, graceMs: number): AbortSignal {
  const following = new AbortController();
  const stop = () => following.abort(canceled.reason);
  const onCancel = () =>
    named() ? stop() : AbortSignal.timeout(graceMs).addEventListener('abort', stop, { once: true });
  if (canceled.aborted) onCancel();
  else canceled.addEventListener('abort', onCancel, { once: true });
  return following.signal;
}

/** The task an event of the external agent is about; none for a direct answer (a message). */
function remoteTaskIdOf(event: StreamResponse): string | undefined {
  const payload = event.payload;
  if (payload?.$case === 'task') return payload.value.id;
  if (payload?.$case === 'statusUpdate' || payload?.$case === 'artifactUpdate') return payload.value.taskId;
  return undefined;
}

/** The caller's message as the external agent gets it: its own task and context ids, nothing local. */
function forwardedMessage(message: Message, taskId: string, contextId: string): Message {
  return { ...message, taskId, contextId, referenceTaskIds: [] };
}
