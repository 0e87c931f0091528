import type { ExternalAgent } from '../../../a2a-client/external-agent';
import type { ExternalAgentConfig } from '../../../config/config.schema';
import type { ExternalAgents } from '../../../a2a-client/external-agents.service';
import type { AgentRegistry, HostedAgent } from '../../agent-registry.service';

/** Whether an agent whose `delegates` are these may delegate to `external`: it is trusted, or named. */
export function mayDelegateTo(
  delegates: readonly string[],
  external: Pick<ExternalAgentConfig, 'name' | 'trusted'>,
): boolean {
  return external.trusted || delegates.includes(external.name);
}

/** Which external agents an agent may delegate to: the `trusted` ones, and those its `delegates` names. */
export class DelegationRules {
  constructor(
    private readonly agents: AgentRegistry,
    private readonly externalAgents: ExternalAgents,
  ) {}

  /** The external agents `agent` may delegate to, in configuration order, reachable or not. */
  allowedFor(agent: string): ExternalAgent[] {
    const delegates = this.agents.find(agent)?.config.delegates ?? [];
    return this.externalAgents.all().filter((external) => mayDelegateTo(delegates, external.config));
  }

  /** The local agent that runs `name`'s delegated tasks (see AgentRegistry). */
  delegateOf(name: string): HostedAgent | undefined {
    return this.agents.findDelegate(name);
  }

  /** The external agent `name` when `agent` may delegate to it and it is discovered; else why not, for the model to read. */
  target(agent: string, name: string): { external: ExternalAgent } | { refused: string } {
    const external = this.externalAgents.find(name);
    if (!external)
      return { refused: `No external agent is named "${name}"; a2a_discover lists those this agent may delegate to.` };
    if (!this.allowedFor(agent).includes(external)) {
      return {
        refused: `Agent "${agent}" may not delegate to "${name}" (it is neither trusted nor one of this agent's delegates).`,
      };
    }
    const { state } = external.status();
    if (state !== 'ready')
      return {
        refused: `External agent "${name}" is not available: its card has not been read (${state}). Try again later.`,
      };
    return { external };
  }
}
