/** No configured MCP server offers a tool by this namespaced name. */
export class McpUnknownToolError extends Error {
  constructor(readonly tool: string) {
    super(`no MCP tool named "${tool}"`);
    this.name = 'McpUnknownToolError';
  }
}

/** The server is not connected (starting, or reconnecting after a drop); calls fail at once rather than wait. */
export class McpServerUnavailableError extends Error {
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super(`MCP server "${server}" is unavailable: ${reason}`);
    this.name = 'McpServerUnavailableError';
  }
}

/** A tool call got no answer within its deadline; the server was told to cancel it. */
export class McpToolTimeoutError extends Error {
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly timeoutMs: number,
  ) {
    super(`MCP tool "${tool}" of server "${server}" timed out after ${timeoutMs} ms`);
    this.name = 'McpToolTimeoutError';
  }
}

/** No connected MCP server offers a resource by this namespaced URI (`mcp://{server}/{uri}`). */
export class McpUnknownResourceError extends Error {
  constructor(readonly uri: string) {
    super(`no MCP server offers resource "${uri}" (upstream resources are mcp://{server}/{uri})`);
    this.name = 'McpUnknownResourceError';
  }
}

/** No connected MCP server offers a prompt by this namespaced name. */
export class McpUnknownPromptError extends Error {
  constructor(readonly prompt: string) {
    super(`no MCP prompt named "${prompt}"`);
    this.name = 'McpUnknownPromptError';
  }
}
