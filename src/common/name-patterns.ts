/**
 * A list of names or patterns where `*` stands for any run of characters (`mcp_github_*`, `*`):
 * an agent's tool allowlist, an API key's tools and agents. An empty list allows nothing.
 */
export class NamePatterns {
  private readonly patterns: RegExp[];
  /** The entries as given, as one string: equal for equal lists. */
  readonly source: string;

  constructor(entries: readonly string[]) {
    this.source = JSON.stringify(entries);
    this.patterns = entries.map((entry) => new RegExp(`^${entry.split('*').map(escapeRegExp).join('.*')}$`));
  }

  allows(name: string): boolean {
    return this.patterns.some((pattern) => pattern.test(name));
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
