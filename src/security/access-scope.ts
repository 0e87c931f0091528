import type { AccessGrant } from '../config/auth.schema';
import { NamePatterns } from '../common/name-patterns';

/**
 * What a caller may reach: tool names (as `/mcp` lists them) and agent names, each as a list of
 * patterns where `*` matches any run of characters. No list means everything: keys configured
 * without `tools` or `agents`, and callers of a service that runs without keys.
 */
export class AccessScope {
  static readonly unrestricted = new AccessScope(undefined, undefined);
  static readonly none = AccessScope.of({ tools: [], agents: [] });

  private constructor(
    private readonly tools: NamePatterns | undefined,
    private readonly agents: NamePatterns | undefined,
  ) {}

  static of(grant: AccessGrant): AccessScope {
    if (!grant.tools && !grant.agents) return AccessScope.unrestricted;
    return new AccessScope(grant.tools && new NamePatterns(grant.tools), grant.agents && new NamePatterns(grant.agents));
  }

  /** Everything any of `grants` allows: a kind is whole when one of them leaves it unset. */
  static union(grants: readonly AccessGrant[]): AccessScope {
    const merged = (kind: keyof AccessGrant) => (grants.some((grant) => !grant[kind]) ? undefined : grants.flatMap((grant) => grant[kind]!));
    return AccessScope.of({ tools: merged('tools'), agents: merged('agents') });
  }

  allowsTool(name: string): boolean {
    return this.tools?.allows(name) ?? true;
  }

  allowsAgent(name: string): boolean {
    return this.agents?.allows(name) ?? true;
  }
}

/** Why a caller was refused an agent, and where its reach is configured. */
export function agentRefusal(caller: string, agent: string): string {
  return `The caller "${caller}" may not reach agent "${agent}" (see auth.rules, and its key's "agents" in auth.api_keys).`;
}
