/**
 * What a caller may reach: tool names (as `/mcp` lists them) and agent names, each as a list of
 * patterns where `*` matches any run of characters. No list means everything: keys configured
 * without `tools` or `agents`, and callers of a service that runs without keys.
 */
export class AccessScope {
  static readonly unrestricted = new AccessScope(undefined, undefined);

  private constructor(
    private readonly tools: RegExp | undefined,
    private readonly agents: RegExp | undefined,
  ) {}

  static of(patterns: { tools?: readonly string[]; agents?: readonly string[] }): AccessScope {
    if (!patterns.tools && !patterns.agents) return AccessScope.unrestricted;
    return new AccessScope(anyOf(patterns.tools), anyOf(patterns.agents));
  }

  allowsTool(name: string): boolean {
    return this.tools?.test(name) ?? true;
  }

  allowsAgent(name: string): boolean {
    return this.agents?.test(name) ?? true;
  }
}

function anyOf(patterns: readonly string[] | undefined): RegExp | undefined {
  if (!patterns) return undefined;
  const alternatives = patterns.map((pattern) => pattern.split('*').map(escapeRegExp).join('.*'));
  // An empty list allows nothing: `(?!)` never matches.
  return new RegExp(alternatives.length > 0 ? `^(?:${alternatives.join('|')})$` : '(?!)');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
