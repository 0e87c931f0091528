import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';

/** One agent turn: the caller's message (and the task it continues, if any), and its cancellation. */
export interface AgentTurn {
  /** The SDK's request context: `userMessage`, `taskId`, `contextId`, and `task` on a follow-up. */
  context: RequestContext;
  /** Aborts when a client cancels the task; the executor stops and returns (or throws). */
  signal: AbortSignal;
  /** What the turn keeps of its own progress, for a worker that takes it over. */
  progress: TurnProgress;
}

/**
 * A turn's record of how far it got, kept with its queued job: a worker that takes the turn over
 * after the first one died reads it (`saved`) to go on from there rather than do again what was done.
 */
export interface TurnProgress {
  /** What the turn's earlier run saved last; undefined on a first run or when it saved nothing. */
  readonly saved?: object;
  save(progress: object): Promise<void>;
}

/**
 * What every agent kind implements (echo, script, and LLM agents later). A turn publishes the SDK's
 * execution events: a `task` first (or one `message` for an answer without a task), then status and
 * artifact updates, ending in a terminal or interrupted state. The turn runner around it persists
 * the events, fans them out and publishes `canceled` or `failed` when the executor stops early.
 */
export interface AgentTurnExecutor {
  /**
   * Whether a turn acts outside its task: calls a model, a tool or another agent. Such a turn's new
   * task is stored before it runs, so that a store that cannot take it refuses the send before the
   * agent has done anything a resend would do again; a turn that only publishes (echo, script) has
   * its task stored by its first batch, which costs one write fewer.
   */
  readonly actsOutsideTask: boolean;
  run(turn: AgentTurn, events: ExecutionEventBus): Promise<void>;
  /**
   * Picks up a turn whose worker died mid-turn, from the task (and the turn's saved progress) as
   * that worker left it. Only for executors that can tell what was done from what was not (work
   * going on elsewhere, a remote agent's or an upstream MCP task; steps recorded), so that nothing
   * runs twice; a turn of any other executor ends `failed` instead.
   */
  resume?(turn: AgentTurn, events: ExecutionEventBus): Promise<void>;
}
