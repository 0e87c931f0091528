import { Role, TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { abortableSleep } from '../../common/abortable-sleep';
import type { AgentTurn, AgentTurnExecutor } from '../agent-executor.interface';
import { TurnPublisher } from '../../tasks';
import { textPart } from '../../common/parts';
import type { ScriptExecutorSettings, ScriptStep } from '../../config/executor-settings.schema';

const STATE_OF: Record<Extract<ScriptStep, { status: unknown }>['status'], TaskState> = {
  working: TaskState.TASK_STATE_WORKING,
  'input-required': TaskState.TASK_STATE_INPUT_REQUIRED,
  'auth-required': TaskState.TASK_STATE_AUTH_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  rejected: TaskState.TASK_STATE_REJECTED,
  canceled: TaskState.TASK_STATE_CANCELED,
};

/** Plays a configured sequence of events: every lifecycle path, on demand, for demos and tests. */
export class ScriptExecutor implements AgentTurnExecutor {
  readonly actsOutsideTask = false;

  constructor(private readonly settings: ScriptExecutorSettings) {}

  async run({ context, signal }: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    const publish = new TurnPublisher(bus, context);
    const [first] = this.settings.steps;
    if ('message' in first) {
      publish.message([textPart(first.message)]);
      return;
    }
    publish.task(context);
    let artifactCount = 0;
    const steps = this.settings.reply_steps && continues(context) ? this.settings.reply_steps : this.settings.steps;
    for (const step of steps) {
      if ('delay_ms' in step) {
        await abortableSleep(step.delay_ms, signal);
      } else if ('status' in step) {
        publish.status(STATE_OF[step.status], step.text);
      } else if ('artifact' in step) {
        const { text, name, append, last_chunk } = step.artifact;
        if (!append || artifactCount === 0) artifactCount += 1;
        const artifactId = `${context.taskId}-artifact-${artifactCount}`;
        publish.artifact({ artifactId, name, parts: [textPart(text)], append, lastChunk: last_chunk });
      } else if ('throw' in step) {
        throw new Error(step.throw);
      }
    }
  }
}

/**
 * Whether a turn continues its task (the answer to its question): the task holds a message from the caller
 * other than this turn's. Whether this turn's message is in the history yet depends on who stored the task
 * first (the API for a non-blocking send, the turn itself for a blocking one), so it is not counted.
 */
function continues({ task, userMessage }: RequestContext): boolean {
  return (
    task?.history.some((message) => message.role === Role.ROLE_USER && message.messageId !== userMessage.messageId) ??
    false
  );
}
