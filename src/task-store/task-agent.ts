import type { ServerCallContext } from '@a2a-js/sdk/server';

/** Where the agent sits in its call context's state bag. */
const AGENT_KEY = 'switchboard.taskAgent';

/**
 * Names the hosted agent whose tasks the call writes: a task is stored with it when first written
 * (the operator's views filter by it). A call serves one agent, so the context carries it to the
 * store as it carries the caller's scope.
 */
export function attachTaskAgent(context: ServerCallContext, agent: string): void {
  context.state.set(AGENT_KEY, agent);
}

export function taskAgentOf(context: ServerCallContext): string | undefined {
  return context.state.get(AGENT_KEY) as string | undefined;
}
