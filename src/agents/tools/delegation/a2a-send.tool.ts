import {
  CancelTaskRequest,
  GetTaskRequest,
  type Message,
  SendMessageRequest,
  type StreamResponse,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import { TaskNotFoundError } from '@a2a-js/sdk/errors';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { INTERRUPTED_TASK_STATES, isTerminal, stateLabel } from '../../../common/task-states';
import { remoteTaskLinkOf } from '../../executors/a2a/remote-task-link';
import { callContextOf, callerScopeOf } from '../../../tasks';
import { messageText, taskText } from '../../../common/parts';
import { failure } from '../tool-limits';
import type { ToolCallContext, ToolDefinition, ToolResult } from '../tool-provider.interface';
import type { DelegateHandler, DelegateHandlers } from './delegate-handlers.interface';
import type { DelegationTool } from './delegation-tool.interface';
import type { DelegationRules } from './delegation-rules';

/** The tool's name, in agents' `tools` lists. */
export const A2A_SEND_TOOL = 'a2a_send';

const FAILED_STATES: readonly TaskState[] = [
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_REJECTED,
  TaskState.TASK_STATE_CANCELED,
];
/** What a2a_send keeps of the tool timeout for reading the task after its wait (at most half of it). */
const MARGIN_SECS = 5;

interface SendInput {
  agent: string;
  message: string;
  taskId?: string;
  waitSecs?: number;
}

/**
 * `a2a_send`: a message to an external agent, run as a durable local task of its delegate agent
 * through the delegate's A2A handler, in the calling turn's caller scope (so the caller finds the
 * task under their key, linked to the remote task by its metadata). Waits for the turn up to
 * `wait_secs`; a task still running then goes on. A task waiting for input is continued by its id.
 */
export class A2aSendTool implements DelegationTool {
  private readonly logger = new Logger(A2aSendTool.name);
  readonly definition: ToolDefinition;
  private readonly maxWaitSecs: number;

  constructor(
    private readonly rules: DelegationRules,
    private readonly delegates: DelegateHandlers,
    toolTimeoutSecs: number,
  ) {
    this.maxWaitSecs = toolTimeoutSecs - Math.min(MARGIN_SECS, toolTimeoutSecs / 2);
    this.definition = {
      name: A2A_SEND_TOOL,
      description:
        'Send a message to an external A2A agent (one that a2a_discover lists) and wait for its answer. Returns JSON: ' +
        '"state", "taskId", "contextId" and the agent\'s "answer" (or the "reason" it failed). ' +
        'State "input-required": the agent asks you something (its answer is the question); reply with a2a_send, the same agent and that taskId. ' +
        `State "working": the agent had not finished after wait_secs; the task goes on without you.`,
      inputSchema: {
        type: 'object',
        properties: {
          agent: { type: 'string', description: "The external agent's name, as a2a_discover lists it." },
          message: { type: 'string', description: 'The message for the agent.' },
          taskId: {
            type: 'string',
            description: 'Only to answer a task of this agent that is in state "input-required".',
          },
          wait_secs: {
            type: 'number',
            exclusiveMinimum: 0,
            maximum: this.maxWaitSecs,
            description: `How long to wait for the answer (default and maximum ${this.maxWaitSecs}).`,
          },
        },
        required: ['agent', 'message'],
        additionalProperties: false,
      },
    };
  }

  async call(args: Record<string, unknown>, signal: AbortSignal, caller: ToolCallContext): Promise<ToolResult> {
    const input = sendInput(args);
    if (typeof input === 'string') return failure(input);
    const target = this.rules.target(caller.agent, input.agent);
    if ('refused' in target) return failure(target.refused);
    const delegate = this.delegates.findDelegate(input.agent);
    if (!delegate) return failure(`External agent "${input.agent}" cannot be delegated to on this server.`);
    // A context of its own in the turn's scope: the handler's store keeps what a request wrote per
    // context (RequestScopedTaskStore), and a later call must read the task as stored, not as this one left it.
    const context = callContextOf(callerScopeOf(caller.callContext));
    if (input.taskId !== undefined) {
      const refused = await this.continuationRefused(delegate, input.taskId, context);
      if (refused) return failure(refused);
    }
    const waitMs = Math.min(input.waitSecs ?? this.maxWaitSecs, this.maxWaitSecs) * 1000;
    let turn: TurnSoFar;
    try {
      turn = await readTurn(
        delegate.handler.sendMessageStream(sendRequest(input), context),
        AbortSignal.any([signal, AbortSignal.timeout(waitMs)]),
      );
    } catch (error) {
      if (signal.aborted) throw error;
      return failure(`"${input.agent}" was not sent the message: ${(error as Error).message}`);
    }
    if (signal.aborted) {
      // The calling turn was canceled: nobody will read this task's answer.
      if (turn.taskId) this.cancel(delegate, turn.taskId, context);
      throw signal.reason;
    }
    if (turn.message)
      return answer({ state: 'completed', contextId: turn.message.contextId, answer: messageText(turn.message) });
    if (!turn.taskId) return failure(`"${input.agent}" gave neither a task nor an answer within ${waitMs / 1000} s.`);
    const task = await delegate.handler.getTask(GetTaskRequest.fromJSON({ id: turn.taskId }), context);
    this.logger.log(
      {
        taskId: caller.taskId,
        agent: caller.agent,
        delegate: input.agent,
        delegatedTaskId: task.id,
        state: stateLabel(task.status?.state),
      },
      'task delegated',
    );
    return taskResult(task);
  }

  /** Why the task may not be continued: not the caller's, not this agent's, or not waiting for input. */
  private async continuationRefused(
    delegate: DelegateHandler,
    taskId: string,
    context: ServerCallContext,
  ): Promise<string | undefined> {
    const agent = delegate.agent.config.name;
    let task: Task;
    try {
      task = await delegate.handler.getTask(GetTaskRequest.fromJSON({ id: taskId }), context);
    } catch (error) {
      if (error instanceof TaskNotFoundError) return `No task "${taskId}" was found.`;
      throw error;
    }
    if (remoteTaskLinkOf(task)?.agent !== agent) return `Task "${taskId}" is not a task of "${agent}".`;
    if (isTerminal(task))
      return `Task "${taskId}" has ended (${stateLabel(task.status?.state)}); send without taskId to start a new one.`;
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (!INTERRUPTED_TASK_STATES.includes(state))
      return `Task "${taskId}" is ${stateLabel(task.status?.state)}, not waiting for input; it cannot take a message now.`;
    return undefined;
  }

  /** Best effort, in the background: the turn's own cancellation must not wait for it, and the task may have ended first. */
  private cancel(delegate: DelegateHandler, taskId: string, context: ServerCallContext): void {
    const agent = delegate.agent.config.name;
    delegate.handler.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }), context).then(
      () =>
        this.logger.log({ delegate: agent, delegatedTaskId: taskId }, 'delegated task canceled with its calling turn'),
      (error: unknown) =>
        this.logger.debug(
          { delegate: agent, delegatedTaskId: taskId, err: (error as Error).message },
          'could not cancel a delegated task',
        ),
    );
  }
}

function sendInput(args: Record<string, unknown>): SendInput | string {
  const { agent, message, taskId, wait_secs: waitSecs } = args;
  if (typeof agent !== 'string' || !agent)
    return 'a2a_send needs "agent": the name of an external agent (see a2a_discover).';
  if (typeof message !== 'string' || !message.trim()) return 'a2a_send needs "message": the text for the agent.';
  if (taskId !== undefined && (typeof taskId !== 'string' || !taskId))
    return 'a2a_send: "taskId" must be the id of a task a2a_send returned.';
  if (waitSecs !== undefined && !(typeof waitSecs === 'number' && waitSecs > 0))
    return 'a2a_send: "wait_secs" must be a positive number.';
  return { agent, message, taskId, waitSecs };
}

/**
 * `returnImmediately` makes the API record the task as submitted before the turn is queued (see
 * QueuedAgentExecutor), so the stream names the task at once, even if no worker takes the turn
 * before the deadline.
 */
function sendRequest({ message, taskId }: SendInput): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: message }], ...(taskId && { taskId }) },
    configuration: { returnImmediately: true },
  });
}

interface TurnSoFar {
  taskId?: string;
  /** A direct answer, without a task. */
  message?: Message;
}

/**
 * Reads a send's stream until the turn rests (the stream ends) or `deadline` aborts, without waiting
 * for another event then. The SDK's stream stops listening when it next regains control (its next
 * event, or the turn's end); the turn itself goes on.
 */
async function readTurn(stream: AsyncGenerator<StreamResponse>, deadline: AbortSignal): Promise<TurnSoFar> {
  const stopped = new Promise<undefined>((resolve) => {
    if (deadline.aborted) resolve(undefined);
    deadline.addEventListener('abort', () => resolve(undefined), { once: true });
  });
  let taskId: string | undefined;
  try {
    for (;;) {
      const next = stream.next();
      // Past the deadline nobody reads it; it must not become an unhandled rejection.
      next.catch(() => undefined);
      const result = await Promise.race([next, stopped]);
      if (!result || result.done) return { taskId };
      const payload = result.value.payload;
      if (payload?.$case === 'message') return { message: payload.value };
      if (payload?.$case === 'task') taskId ??= payload.value.id;
    }
  } finally {
    stream.return(undefined).catch(() => undefined);
  }
}

function taskResult(task: Task): ToolResult {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  const ids = { state: stateLabel(task.status?.state), taskId: task.id, contextId: task.contextId };
  if (FAILED_STATES.includes(state)) {
    return {
      text: JSON.stringify({ ...ids, reason: messageText(task.status?.message) || `The task ended ${ids.state}.` }),
      isError: true,
    };
  }
  // Waiting, the agent's question is its status message; artifacts are what it produced so far.
  const text = INTERRUPTED_TASK_STATES.includes(state)
    ? messageText(task.status?.message) || taskText(task)
    : taskText(task);
  return answer({ ...ids, answer: text });
}

/** The result as JSON, the answer last, so that a result cut to size loses only the end of the answer. */
function answer(result: { state: string; taskId?: string; contextId: string; answer: string }): ToolResult {
  return { text: JSON.stringify(result), isError: false };
}
