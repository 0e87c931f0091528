import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { McpServerConfig, SwitchboardConfig } from '../config/config.schema';
import { createGuardedFetch } from '../security/guarded-fetch';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { McpUnknownToolError } from './mcp-client.errors';
import { McpConnection } from './mcp-connection';
import { createMcpTransport } from './mcp-transport.factory';
import type { McpCallOptions, McpTool, McpToolSource } from './mcp-tool-source.interface';
import { describeServers, type McpServersView } from './mcp-servers.view';
import { namespaceTools, toolNamePrefix, type ToolNameCollision } from './tool-namespace';

/**
 * Every configured MCP server's connection, and the namespaced tools they offer. Connections start
 * after boot and never hold it up: a slow or broken server only shows in its status.
 */
@Injectable()
export class McpConnectionManager implements McpToolSource, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(McpConnectionManager.name);
  private readonly connections: Map<string, McpConnection>;
  private tools = new Map<string, McpTool>();
  private collisions: ToolNameCollision[] = [];
  private readonly changeListeners = new Set<() => void>();

  constructor(config: ConfigService<SwitchboardConfig, true>, policy: OutboundUrlPolicy) {
    const servers = config.get('mcp_servers', { infer: true });
    this.connections = new Map(servers.map((server) => [server.name, this.connectionTo(server, policy)]));
  }

  onApplicationBootstrap(): void {
    for (const connection of this.connections.values()) connection.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  list(): McpTool[] {
    return [...this.tools.values()].filter((tool) => this.connections.get(tool.server)?.connected);
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  serverOf(name: string): string | undefined {
    const known = this.tools.get(name)?.server;
    if (known) return known;
    // Server names may prefix each other (`fs`, `fs-extra`): the longest match is the one.
    const matches = [...this.connections.keys()].filter((server) => name.startsWith(toolNamePrefix(server)));
    return matches.sort((a, b) => b.length - a.length)[0];
  }

  call(name: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<CallToolResult> {
    const tool = this.tools.get(name);
    if (tool) return this.connections.get(tool.server)!.call(tool.serverToolName, args, options);
    // A tool of a server that has never connected is not known by name, only by its server's prefix.
    const server = this.serverOf(name);
    const down = server === undefined ? undefined : this.connections.get(server)!.unavailable();
    return Promise.reject(down ?? new McpUnknownToolError(name));
  }

  describe(): McpServersView {
    return describeServers([...this.connections.values()], this.list(), this.collisions);
  }

  private connectionTo(server: McpServerConfig, policy: OutboundUrlPolicy): McpConnection {
    const fetch = createGuardedFetch(policy, { timeoutMs: server.timeout_secs * 1000 });
    const onStderr = (line: string) => this.logger.debug({ server: server.name, line }, 'MCP server stderr');
    return new McpConnection(server, () => createMcpTransport(server, fetch, onStderr), () => this.rebuildTools());
  }

  /** Namespaces again from every server's current list, in config order, so which tool wins a name never depends on timing. */
  private rebuildTools(): void {
    const { tools, collisions } = namespaceTools([...this.connections.values()].map(({ name, tools }) => ({ server: name, tools })));
    this.tools = new Map(tools.map((tool) => [tool.name, tool]));
    const reported = new Set(this.collisions.map((collision) => JSON.stringify(collision)));
    for (const collision of collisions.filter((collision) => !reported.has(JSON.stringify(collision)))) {
      this.logger.warn({ ...collision }, 'MCP tool left out: another tool already has its namespaced name');
    }
    this.collisions = collisions;
    for (const listener of this.changeListeners) {
      // A failing listener must not pass for a failed connection (this runs inside the connect).
      try {
        listener();
      } catch (error) {
        this.logger.error({ err: (error as Error).message }, 'a tool-list change listener failed');
      }
    }
  }
}
