import { type Part, TaskState } from '@a2a-js/sdk';
import type { ExecutionEventBus } from '@a2a-js/sdk/server';
import { abortableSleep } from '../../common/abortable-sleep';
import type { AgentTurn, AgentTurnExecutor } from '../agent-executor.interface';
import { TurnPublisher } from '../../tasks';
import { partsText, textPart } from '../../common/parts';
import type { EchoExecutorSettings } from '../../config/executor-settings.schema';

/**
 * Answers with the caller's own parts: working, the echo as an artifact (in `chunks` pieces),
 * completed. The answer is in the artifact alone: clients that read both the status message and the
 * artifacts would show it twice.
 */
export class EchoExecutor implements AgentTurnExecutor {
  readonly actsOutsideTask = false;

  constructor(private readonly settings: EchoExecutorSettings) {}

  async run({ context, signal }: AgentTurn, bus: ExecutionEventBus): Promise<void> {
    const publish = new TurnPublisher(bus, context);
    const parts = context.userMessage.parts;
    publish.working(context);
    const chunks = splitIntoChunks(parts, this.settings.chunks);
    const artifactId = `echo-${context.userMessage.messageId}`;
    for (const [index, chunk] of chunks.entries()) {
      await abortableSleep(this.settings.delay_ms, signal);
      const lastChunk = index === chunks.length - 1;
      publish.artifact({ artifactId, name: 'echo', parts: chunk, append: index > 0, lastChunk });
    }
    publish.status(TaskState.TASK_STATE_COMPLETED);
  }
}

/** Text is cut into `count` pieces of about equal length; other parts travel with the last piece. */
function splitIntoChunks(parts: Part[], count: number): Part[][] {
  if (count === 1) return [parts];
  const text = partsText(parts);
  const others = parts.filter((part) => part.content?.$case !== 'text');
  const size = Math.max(1, Math.ceil(text.length / count));
  const chunks: Part[][] = [];
  for (let start = 0; start < text.length && chunks.length < count - 1; start += size) {
    chunks.push([textPart(text.slice(start, start + size))]);
  }
  const rest = text.slice(chunks.length * size);
  chunks.push([...(rest ? [textPart(rest)] : []), ...others]);
  return chunks;
}
