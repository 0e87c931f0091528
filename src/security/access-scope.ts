import { NamePatterns } from '../common/name-patterns';

/**
 * What a caller may reach: tool names (as `/mcp` lists them) and agent names, each as a list of
 * patterns where `*` matches any run of characters. No list means everything: keys configured
 * without `tools` or `agents`, and callers of a service that runs without keys.
 */
export class AccessScope {
  static readonly unrestricted = new AccessScope(undefined, undefined);

  private constructor(
    private readonly tools: NamePatterns | undefined,
    private readonly agents: NamePatterns | undefined,
  ) {}

  static of(patterns: { tools?: readonly string[]; agents?: readonly string[] }): AccessScope {
    if (!patterns.tools && !patterns.agents) return AccessScope.unrestricted;
    return new AccessScope(patterns.tools && new NamePatterns(patterns.tools), patterns.agents && new NamePatterns(patterns.agents));
  }

  allowsTool(name: string): boolean {
    return this.tools?.allows(name) ?? true;
  }

  allowsAgent(name: string): boolean {
    return this.agents?.allows(name) ?? true;
  }
}
