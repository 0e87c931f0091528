import type { ServerCallContext } from '@a2a-js/sdk/server';

/** Where the agents sit in their call context's state bag. */
const AGENT_KEY = 'switchboard.taskAgent';
const ENDPOINT_AGENT_KEY = 'switchboard.endpointAgents';

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

/**
 * Names the agents whose tasks a call to one hosted agent's A2A endpoint reads: that agent's (and
 * those of the external agents it delegates to). Each agent is an A2A server of its own: the call
 * loads and lists those tasks only, and another agent's task is not found. Calls that come no
 * agent's way (operators, the worker, the MCP face) name none and read every agent's.
 */
export function attachEndpointAgents(context: ServerCallContext, agents: readonly string[]): void {
  context.state.set(ENDPOINT_AGENT_KEY, agents);
}

export function endpointAgentsOf(context: ServerCallContext): readonly string[] | undefined {
  return context.state.get(ENDPOINT_AGENT_KEY) as readonly string[] | undefined;
}

/** Whether the call in `context` may read a task stored with `agent` (none for tasks stored before agents were recorded). */
export function readableBy(agent: string | undefined, context: ServerCallContext): boolean {
  const agents = endpointAgentsOf(context);
  return agents === undefined || (agent !== undefined && agents.includes(agent));
}
