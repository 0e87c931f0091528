import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';

/** One agent turn: the caller's message (and the task it continues, if any), and its cancellation. */
export interface AgentTurn {
  /** The SDK's request context: `userMessage`, `taskId`, `contextId`, and `task` on a follow-up. */
  context: RequestContext;
  /** Aborts when a client cancels the task; the executor stops and returns (or throws). */
  signal: AbortSignal;
}

/**
 * What every agent kind implements (echo, script, and LLM agents later). A turn publishes the SDK's
 * execution events: a `task` first (or one `message` for an answer without a task), then status and
 * artifact updates, ending in a terminal or interrupted state. The turn runner around it persists
 * the events, fans them out and publishes `canceled` or `failed` when the executor stops early.
 */
export interface AgentTurnExecutor {
  run(turn: AgentTurn, events: ExecutionEventBus): Promise<void>;
  /**
   * Picks up a turn whose worker died mid-turn, from the task as that worker left it. Only for
   * executors whose work goes on elsewhere (a remote agent's task), so that nothing runs twice; a
   * turn of any other executor ends `failed` instead.
   */
  resume?(turn: AgentTurn, events: ExecutionEventBus): Promise<void>;
}
