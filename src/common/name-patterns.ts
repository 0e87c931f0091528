/**
 * An agent's capability allowlist: tool names or patterns where `*` stands for any run of
 * characters (`mcp_github_*`, `*`). An empty list allows nothing.
 */
export class ToolAllowlist {
  private readonly patterns: RegExp[];

  constructor(entries: readonly string[]) {
    this.patterns = entries.map((entry) => new RegExp(`^${entry.split('*').map(escapeRegExp).join('.*')}$`));
  }

  allows(name: string): boolean {
    return this.patterns.some((pattern) => pattern.test(name));
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
