import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
} from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/config.schema';
import { LiveCatalog } from '../config/live-catalog';
import { reconcileByName } from '../common/reconcile-by-name';
import { MetricsService, Sample } from '../metrics/metrics.service';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { McpUnknownPromptError, McpUnknownResourceError, McpUnknownToolError } from './mcp-client.errors';
import type { McpCatalogSource } from './mcp-catalog-source.interface';
import { McpConnection } from './mcp-connection';
import { createMcpConnection } from './mcp-connection.factory';
import type { McpCallOptions, McpTool, McpToolSource } from './mcp-tool-source.interface';
import { describeServers, type McpServersView } from './mcp-servers.view';
import { namespacedUri, upstreamUri, withNamespacedUris } from './resource-namespace';
import {
  namespacedToolName,
  namespaceNames,
  namespaceTools,
  toolNamePrefix,
  type ToolNameCollision,
} from './tool-namespace';

/**
 * A connection to every MCP server of the live catalog, and the namespaced tools they offer.
 * Connections start after boot and never hold it up: a slow or broken server only shows in its
 * status. When the catalog's servers change, a removed server's connection is closed, an added one
 * opened, and a changed one replaced; the tool listeners hear of it as of any other change.
 */
@Injectable()
export class McpConnectionManager
  implements McpToolSource, McpCatalogSource, OnApplicationBootstrap, OnApplicationShutdown
{
  private readonly logger = new Logger(McpConnectionManager.name);
  private connections: Map<string, McpConnection>;
  private tools = new Map<string, McpTool>();
  /** By namespaced name: the server and its own prompt. */
  private promptsByName = new Map<string, { server: string; prompt: Prompt }>();
  private collisions: ToolNameCollision[] = [];
  private readonly changeListeners = new Set<() => void>();
  private servers: Map<string, McpServerConfig>;
  /** Connections made after boot start at once; those of the boot's catalog wait for it. */
  private started = false;
  private readonly stopFollowing: () => void;

  constructor(
    catalog: LiveCatalog,
    private readonly policy: OutboundUrlPolicy,
    metrics: MetricsService,
  ) {
    this.servers = new Map(catalog.current.mcp_servers.map((server) => [server.name, server]));
    this.connections = new Map([...this.servers.values()].map((server) => [server.name, this.connectionTo(server)]));
    this.stopFollowing = catalog.onChange((next, previous) => {
      if (next.mcp_servers !== previous.mcp_servers) this.follow(next.mcp_servers);
    });
    metrics.mcpServerUp.readFrom(() =>
      [...this.connections.values()].map((connection): Sample<'server'> => [
        { server: connection.name },
        connection.connected ? 1 : 0,
      ]),
    );
  }

  onApplicationBootstrap(): void {
    this.started = true;
    for (const connection of this.connections.values()) connection.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopFollowing();
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }

  list(): McpTool[] {
    return [...this.tools.values()].filter((tool) => this.connections.get(tool.server)?.connected);
  }

  get(name: string): McpTool | undefined {
    const tool = this.tools.get(name);
    return tool && this.connections.get(tool.server)?.connected ? tool : undefined;
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

  declares(capability: keyof ServerCapabilities): boolean {
    return [...this.connections.values()].some((connection) => connection.declares(capability));
  }

  /** The result's resource links and embedded resources carry namespaced URIs, which a client can read through `/mcp`. */
  async call(name: string, args: Record<string, unknown>, options?: McpCallOptions): Promise<CallToolResult> {
    const tool = this.tools.get(name) ?? (await this.listedOnceConnected(name));
    if (!tool) {
      // A tool of a server that has never connected is not known by name, only by its server's prefix.
      const server = this.serverOf(name);
      throw (
        (server === undefined ? undefined : this.connections.get(server)!.unavailable()) ??
        new McpUnknownToolError(name)
      );
    }
    const result = await this.connections.get(tool.server)!.call(tool.serverToolName, args, options);
    return { ...result, content: result.content.map((block) => withNamespacedUris(tool.server, block)) };
  }

  /**
   * Tool `name` once its server's connection attempt under way is over: a process that has just
   * started (a worker taking over a turn) may be asked for a tool before its server is up.
   */
  private async listedOnceConnected(name: string): Promise<McpTool | undefined> {
    const server = this.serverOf(name);
    if (server === undefined) return undefined;
    await this.connections.get(server)!.attempted();
    return this.tools.get(name);
  }

  /** A URI a server lists twice is offered once (the first). */
  resources(): Resource[] {
    const resources = this.connected().flatMap(({ name, catalog }) =>
      catalog.resources.map((resource) => ({ ...resource, uri: namespacedUri(name, resource.uri) })),
    );
    return firstOfEach(resources, (resource) => resource.uri);
  }

  /** A template name taken twice (names are namespaced like tools) is offered once (the first). */
  resourceTemplates(): ResourceTemplateType[] {
    const templates = this.connected().flatMap(({ name, catalog }) =>
      catalog.resourceTemplates.map((template) => ({
        ...template,
        name: namespacedToolName(name, template.name),
        uriTemplate: namespacedUri(name, template.uriTemplate),
      })),
    );
    return firstOfEach(templates, (template) => template.name);
  }

  prompts(): Prompt[] {
    return [...this.promptsByName]
      .filter(([, { server }]) => this.connections.get(server)?.connected)
      .map(([name, { server, prompt }]) => ({
        ...prompt,
        name,
        description: `[MCP:${server}] ${prompt.description ?? prompt.title ?? prompt.name}`,
      }));
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const { connection, uri: own } = this.resourceOwner(uri);
    const result = await connection.request((client, options) => client.readResource({ uri: own }, options), signal);
    return {
      ...result,
      contents: result.contents.map((contents) => ({ ...contents, uri: namespacedUri(connection.name, contents.uri) })),
    };
  }

  async getPrompt(
    name: string,
    args: Record<string, string> | undefined,
    signal?: AbortSignal,
  ): Promise<GetPromptResult> {
    const { connection, prompt } = this.promptOwner(name);
    const result = await connection.request(
      (client, options) => client.getPrompt({ name: prompt, arguments: args }, options),
      signal,
    );
    return {
      ...result,
      messages: result.messages.map((message) => ({
        ...message,
        content: withNamespacedUris(connection.name, message.content),
      })),
    };
  }

  async complete(params: CompleteRequestParams, signal?: AbortSignal): Promise<CompleteResult> {
    const { ref } = params;
    if (ref.type === 'ref/prompt') {
      const { connection, prompt } = this.promptOwner(ref.name);
      return connection.request(
        (client, options) => client.complete({ ...params, ref: { ...ref, name: prompt } }, options),
        signal,
      );
    }
    const { connection, uri } = this.resourceOwner(ref.uri);
    return connection.request(
      (client, options) => client.complete({ ...params, ref: { ...ref, uri } }, options),
      signal,
    );
  }

  subscribable(uri: string): boolean {
    const upstream = upstreamUri(uri);
    return upstream !== undefined && this.connections.get(upstream.server)?.offersSubscriptions === true;
  }

  async followResource(uri: string, onUpdated: () => void, signal: AbortSignal): Promise<void> {
    const { connection, uri: own } = this.resourceOwner(uri);
    const stop = await connection.watchResource(own, onUpdated);
    if (signal.aborted) void stop();
    else signal.addEventListener('abort', () => void stop(), { once: true });
  }

  /**
   * Drops the connection to server `name` on this process and opens a new one (an operator's
   * reconnect): calls in flight on the old one fail, resource subscriptions made through it end.
   * False when no server has that name.
   */
  reconnect(name: string): boolean {
    const server = this.servers.get(name);
    const old = this.connections.get(name);
    if (!server || !old) return false;
    this.logger.log({ server: name }, 'MCP server reconnect asked for');
    const fresh = this.connectionTo(server);
    this.connections.set(name, fresh);
    void old.close();
    fresh.start();
    this.rebuildTools();
    return true;
  }

  /** Connects the catalog's new servers, closes the removed ones' connections, and replaces those whose config changed. */
  private follow(servers: readonly McpServerConfig[]): void {
    const { values, made, dropped, unchanged } = reconcileByName(
      [...this.servers.values()],
      servers,
      this.connections,
      (server) => this.connectionTo(server),
    );
    if (unchanged) return;
    this.servers = new Map(servers.map((server) => [server.name, server]));
    this.connections = values;
    for (const connection of dropped) {
      this.logger.log({ server: connection.name }, 'MCP server left the catalog or changed: its connection is closed');
      void connection.close();
    }
    if (this.started) for (const connection of made) connection.start();
    this.rebuildTools();
  }

  /** Every server with its status and tools, as any caller may see them. */
  describe(): McpServersView {
    return describeServers([...this.connections.values()], this.list(), this.collisions, { stderr: false });
  }

  /** The same, with each stdio server's last stderr lines: for operators only, as a server may write anything there. */
  describeForOperators(): McpServersView {
    return describeServers([...this.connections.values()], this.list(), this.collisions, { stderr: true });
  }

  private connected(): McpConnection[] {
    return [...this.connections.values()].filter((connection) => connection.connected);
  }

  private resourceOwner(uri: string): { connection: McpConnection; uri: string } {
    const upstream = upstreamUri(uri);
    const connection = upstream && this.connections.get(upstream.server);
    if (!upstream || !connection) throw new McpUnknownResourceError(uri);
    return { connection, uri: upstream.uri };
  }

  private promptOwner(name: string): { connection: McpConnection; prompt: string } {
    const entry = this.promptsByName.get(name);
    if (!entry) throw new McpUnknownPromptError(name);
    return { connection: this.connections.get(entry.server)!, prompt: entry.prompt.name };
  }

  private connectionTo(server: McpServerConfig): McpConnection {
    return createMcpConnection(server, this.policy, () => this.rebuildTools());
  }

  /** Namespaces again from every server's current list, in config order, so which tool wins a name never depends on timing. */
  private rebuildTools(): void {
    const { tools, collisions } = namespaceTools(
      [...this.connections.values()].map(({ name, tools }) => ({ server: name, tools })),
    );
    this.tools = new Map(tools.map((tool) => [tool.name, tool]));
    const prompts = namespaceNames(
      [...this.connections.values()].map(({ name, catalog }) => ({ server: name, items: catalog.prompts })),
    );
    this.promptsByName = new Map(prompts.named.map(({ name, server, item }) => [name, { server, prompt: item }]));
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

function firstOfEach<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && Boolean(seen.add(key(item))));
}
