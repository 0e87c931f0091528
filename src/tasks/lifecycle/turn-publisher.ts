import { type Artifact, type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import { textPart } from '../../common/parts';
import { AgentEvent, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { activeTraceId, TRACE_ID_METADATA_KEY } from '../../tracing/trace-context';

export interface ArtifactChunk {
  artifactId: string;
  name?: string;
  parts: Part[];
  append?: boolean;
  lastChunk?: boolean;
}

export interface TaskIds {
  taskId: string;
  contextId: string;
}

/** Where a task names the principal that owns it (an API key's name, a token's `sub@issuer-host`), for its owner and operators. */
export const OWNER_METADATA_KEY = 'switchboard/owner';

/**
 * The task as it stands, submitted, the caller's message last in its history; `metadata` is merged
 * into the task's, an authenticated caller is named as its owner, and the turn's trace (when
 * tracing is on) as its latest.
 */
export function submittedTask(
  { taskId, contextId, task, userMessage, context }: RequestContext,
  metadata: Record<string, unknown> = {},
): Task {
  const owner = context?.user?.isAuthenticated ? { [OWNER_METADATA_KEY]: context.user.userName } : {};
  const traceId = activeTraceId();
  const trace = traceId ? { [TRACE_ID_METADATA_KEY]: traceId } : {};
  const history = task?.history ?? [];
  return {
    id: taskId,
    contextId,
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
    history: withMessage(history, userMessage),
    artifacts: task?.artifacts ?? [],
    metadata: { ...task?.metadata, ...owner, ...trace, ...metadata },
  };
}

/** A task's history with `message` last, unless it holds that message already (a task announced before its turn). */
export function withMessage(history: Message[], message: Message): Message[] {
  return history.some(({ messageId }) => messageId === message.messageId) ? history : [...history, message];
}

/** Builds the SDK's execution events for one turn, so executors only say what happens. */
export class TurnPublisher {
  private readonly ids: TaskIds;

  /** `ids` is often the whole RequestContext: only its ids are kept, as events and messages carry them. */
  constructor(
    private readonly bus: ExecutionEventBus,
    { taskId, contextId }: TaskIds,
  ) {
    this.ids = { taskId, contextId };
  }

  /** The turn's first event: the task as submitted (submittedTask). */
  task(requestContext: RequestContext, metadata: Record<string, unknown> = {}): void {
    this.bus.publish(AgentEvent.task(submittedTask(requestContext, metadata)));
  }

  /** A turn's start: the task, then `working`. */
  working(requestContext: RequestContext): void {
    this.task(requestContext);
    this.status(TaskState.TASK_STATE_WORKING);
  }

  status(state: TaskState, text?: string): void {
    this.statusWith(state, text === undefined ? undefined : [textPart(text)]);
  }

  /** A status whose message (if any) carries these parts. */
  statusWith(state: TaskState, parts?: Part[]): void {
    this.bus.publish(
      AgentEvent.statusUpdate({
        ...this.ids,
        status: { state, message: parts === undefined ? undefined : this.agentMessage(parts), timestamp: now() },
        metadata: {},
      }),
    );
  }

  artifact(chunk: ArtifactChunk): void {
    const artifact: Artifact = {
      artifactId: chunk.artifactId,
      name: chunk.name ?? '',
      description: '',
      parts: chunk.parts,
      metadata: {},
      extensions: [],
    };
    this.bus.publish(
      AgentEvent.artifactUpdate({
        ...this.ids,
        artifact,
        append: chunk.append ?? false,
        lastChunk: chunk.lastChunk ?? false,
        metadata: {},
      }),
    );
  }

  /** A direct answer: the turn then creates no task. */
  message(parts: Part[]): void {
    this.bus.publish(AgentEvent.message({ ...this.agentMessage(parts), taskId: '' }));
  }

  private agentMessage(parts: Part[]): Message {
    return {
      messageId: randomUUID(),
      ...this.ids,
      role: Role.ROLE_AGENT,
      parts,
      metadata: {},
      extensions: [],
      referenceTaskIds: [],
    };
  }
}

function now(): string {
  return new Date().toISOString();
}
