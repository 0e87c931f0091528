import { A2A_SEND_TOOL } from '../agents/tools/delegation/a2a-send.tool';
import { mayDelegateTo } from '../agents/tools/delegation/delegation-rules';
import { NamePatterns } from '../common/name-patterns';
import type { AgentConfig, ExternalAgentConfig } from '../config/config.schema';

/**
 * The agents whose tasks a call to `agent`'s A2A endpoint reads: its own, and the tasks it
 * delegates with `a2a_send`, which are stored as the tasks of the external agents that run them
 * (the caller finds them at the endpoint of the agent they asked).
 */
export function endpointTaskAgents(
  agent: Pick<AgentConfig, 'name' | 'tools' | 'delegates'>,
  externals: readonly ExternalAgentConfig[],
): string[] {
  if (!new NamePatterns(agent.tools).allows(A2A_SEND_TOOL)) return [agent.name];
  return [
    agent.name,
    ...externals.filter((external) => mayDelegateTo(agent.delegates, external)).map((external) => external.name),
  ];
}
