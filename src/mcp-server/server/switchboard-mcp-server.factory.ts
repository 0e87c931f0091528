import { Inject, Injectable } from '@nestjs/common';
import { fromJsonSchema, McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { AgentHandlers, type AgentHandler } from '../../a2a-server/agent-handlers.service';
import { MCP_CATALOG_SOURCE, McpCatalogSource } from '../../mcp-client/mcp-catalog-source.interface';
import { MCP_TOOL_SOURCE, McpTool, McpToolSource } from '../../mcp-client/mcp-tool-source.interface';
import { BuiltinToolProvider } from '../../agents/tools/builtin-tool.provider';
import { ToolPipeline } from '../../agents/tools/tool-pipeline.service';
import { AgentToolCall } from '../tools/agent-tool-call';
import { AskCaller } from '../tools/ask-caller';
import {
  isTaskHandleContent,
  MCP_TASK_CAPABILITIES,
  McpEra,
  registerTaskMethods,
  startAsTask,
  taskRequested,
} from '../mcp-tasks/mcp-task-methods';
import { McpTasks } from '../mcp-tasks/mcp-tasks.service';
import { BRIDGE_RESOURCE_CAPABILITIES, registerBridge } from './bridge-registration';
import type { ResourceSubscriptions } from '../bridge/resource-subscriptions';
import { followListenedTasks, ListenRequest } from '../bridge/listened-tasks';
import { type CallerOf, callerOfRequest, connectionCaller, type McpCaller, type ServerNeeds } from '../mcp-caller';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/mcp-session-store.interface';
import { LocalSubscriptionChanges, sessionSubscriptions } from '../sessions/session-subscriptions';
import { scopedCatalog } from '../scoped-catalog';
import { SubagentBridge } from '../bridge/subagent-bridge';
import { TaskUpdates } from '../bridge/task-updates';
import { OfferedLists } from './offered-lists';
import { registerUpstreamCatalog, upstreamCatalogCapabilities } from './upstream-catalog-registration';
import { UpstreamToolCall } from '../tools/upstream-tool-call';
import { registerUnavailableMcpTool } from '../tools/unavailable-mcp-tool';
import { SWITCHBOARD_VERSION } from '../../common/version';
import { toolNamePart } from '../../config/names.schema';
import { PooledServers, TrackCall } from './pooled-servers';
import { ToolListChanges } from './tool-list-changes';

const SERVER_INFO = { name: 'switchboard', version: SWITCHBOARD_VERSION };
const agentInput = z.object({ message: z.string().min(1).describe('The message for the agent') });

/** Name of the MCP tool that runs a turn of agent `name` (`code-reviewer`: `switchboard_agent_code_reviewer`, the seeds' rule). */
export function agentToolName(name: string): string {
  return `switchboard_agent_${toolNamePart(name)}`;
}

/** The name earlier releases gave that tool (hyphens kept), which clients may still call: callable, never listed. */
function formerAgentToolName(name: string): string {
  return `switchboard_agent_${name}`;
}

/** An MCP server that stays connected (stdio) and keeps its tools current; `stop` ends the keeping. */
export interface LiveMcpServer {
  server: McpServer;
  /** Tells the client task resource `uri` changed (the SDK passes it on in the 2026-07-28 era only to listens that named it). */
  notifyResourceUpdated(uri: string): void;
  stop(): void;
}

/** The ARDF bridge's tools all start so: a call to one of them needs the bridge. */
const BRIDGE_TOOL_PREFIX = 'subagent_';

/**
 * Builds Switchboard's MCP server: every hosted agent as `switchboard_agent_{name}`, the built-in
 * tools (`web_fetch`), every tool of the MCP servers Switchboard is connected to, and the ARDF
 * bridge (agents and tasks as resources, the `subagent_*` tools). Over HTTP, one server answers one request (the
 * SDK's per-request factory), so it lists the tools of that moment; over stdio one server lives as
 * long as the connection and follows the tool list as servers connect, drop and change, and as
 * agents come and go with the catalog.
 */
@Injectable()
export class SwitchboardMcpServerFactory {
  /** JSON Schemas converted once per tool (a reconnect or `list_changed` brings new tool objects). */
  private readonly schemas = new WeakMap<object, ReturnType<typeof fromJsonSchema>>();
  private readonly outputSchemas = new WeakMap<object, ReturnType<typeof fromJsonSchema>>();
  private readonly pooledServers = new PooledServers();

  constructor(
    private readonly handlers: AgentHandlers,
    private readonly agentCalls: AgentToolCall,
    private readonly upstreamCalls: UpstreamToolCall,
    @Inject(MCP_TOOL_SOURCE) private readonly mcpTools: McpToolSource,
    @Inject(MCP_CATALOG_SOURCE) private readonly catalog: McpCatalogSource,
    private readonly builtins: BuiltinToolProvider,
    private readonly toolPipeline: ToolPipeline,
    private readonly bridge: SubagentBridge,
    private readonly updates: TaskUpdates,
    @Inject(MCP_SESSION_STORE) private readonly sessions: McpSessionStore,
    private readonly subscriptionChanges: LocalSubscriptionChanges,
    private readonly mcpTasks: McpTasks,
    private readonly askCaller: AskCaller,
    private readonly toolListChanges: ToolListChanges,
  ) {
    // Capabilities (what the connected servers declare) and tools change only with the connections and the agents.
    toolListChanges.onChange(() => this.pooledServers.clear());
  }

  /**
   * For a call of one tool, a server with that tool and no other; for a connected server's tool (the
   * proxied call) it comes from a pool of servers kept for that tool. For a listing, a server with
   * everything the caller reaches, from a pool kept per reach (of a key's or a token's scope): it
   * runs no tool, so whose request it was built for does not matter.
   */
  create(caller: McpCaller, era: McpEra, needs: ServerNeeds = 'everything'): McpServer {
    if (needs === 'listing')
      return this.pooledServers.acquire(`${era}\nlisting\n${caller.scope.reach}`, () => this.built(caller, era));
    const onlyTool = needs === 'everything' ? undefined : needs.tool;
    const upstreamTool = onlyTool === undefined ? undefined : this.mcpTools.get(onlyTool);
    if (upstreamTool && caller.scope.allowsTool(upstreamTool.name)) {
      return this.pooledServers.acquire(`${era}\n${upstreamTool.name}`, (track) =>
        this.upstreamToolServer(upstreamTool, track),
      );
    }
    return this.built(caller, era, onlyTool);
  }

  /**
   * A server with `onlyTool` alone (and what answers for it when it is not listed), or with
   * everything, as `caller` may reach; its handlers take each request's caller from the request.
   */
  private built(caller: McpCaller, era: McpEra, onlyTool?: string): McpServer {
    const wanted = (name: string) => onlyTool === undefined || name === onlyTool;
    const server = this.newServer(caller, callerOfRequest, () => era, wanted);
    this.registerAgentTools(server, caller, callerOfRequest, wanted);
    if (onlyTool === undefined) this.registerMcpTools(server, caller, callerOfRequest);
    else this.registerUnlisted(server, caller, callerOfRequest, onlyTool, this.mcpTools.get(onlyTool) !== undefined);
    if (onlyTool === undefined || onlyTool.startsWith(BRIDGE_TOOL_PREFIX)) {
      const catalog = scopedCatalog(this.catalog, caller.scope);
      registerBridge(
        server,
        this.bridge,
        this.updates,
        caller.scope,
        callerOfRequest,
        sessionSubscriptions(this.sessions, this.subscriptionChanges, caller.sessionId),
        catalog,
        this.mcpTasks,
      );
      registerUpstreamCatalog(server, catalog);
    }
    return server;
  }

  /** A server for a connection with one caller (stdio), which every request of it comes from. */
  createLive(caller: McpCaller): LiveMcpServer {
    const callerOf = connectionCaller(caller);
    const server: McpServer = this.newServer(caller, callerOf, () => eraOf(server));
    const notifyResourceUpdated = (uri: string) =>
      void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
    const subscriptions = this.liveSubscriptions(notifyResourceUpdated);
    const catalog = scopedCatalog(this.catalog, caller.scope);
    registerBridge(server, this.bridge, this.updates, caller.scope, callerOf, subscriptions, catalog, this.mcpTasks);
    const registerTools = () => [
      ...this.registerAgentTools(server, caller, callerOf),
      ...this.registerMcpTools(server, caller, callerOf),
    ];
    let tools = registerTools();
    let upstream = registerUpstreamCatalog(server, catalog);
    const offered = new OfferedLists(this.catalog, this.bridge);
    // Registering on a connected server announces `notifications/tools/list_changed` (debounced to one).
    const stop = this.toolListChanges.onChange(() => {
      for (const item of tools) item.remove();
      tools = registerTools();
      const changed = offered.changed();
      if (changed.resources) {
        for (const item of upstream) item.remove();
        upstream = registerUpstreamCatalog(server, catalog);
        server.sendResourceListChanged();
      }
      if (changed.prompts && server.server.getCapabilities().prompts) server.sendPromptListChanged();
    });
    return {
      server,
      notifyResourceUpdated,
      stop: () => {
        stop();
        subscriptions.stop();
      },
    };
  }

  /** Follows the caller's own tasks a 2026-07-28 listen names (over stdio: one caller, one connection) while `signal` is live. */
  async followListened(
    listen: ListenRequest,
    caller: McpCaller,
    notify: (uri: string) => void,
    signal: AbortSignal,
  ): Promise<void> {
    await followListenedTasks(
      listen,
      caller,
      this.bridge,
      this.updates,
      scopedCatalog(this.catalog, caller.scope),
      notify,
      signal,
    );
  }

  /**
   * A live connection's subscriptions, kept with it: each subscribed task followed from the moment
   * of subscription until unsubscribed or the connection ends. In the 2026-07-28 era the SDK's
   * listen router passes on only the URIs the client listens to.
   */
  private liveSubscriptions(notify: (uri: string) => void): ResourceSubscriptions & { stop(): void } {
    const followed = new Map<string, AbortController>();
    const remove = async (uri: string) => {
      followed.get(uri)?.abort();
      followed.delete(uri);
    };
    /** Follows `uri` from now on (in place of any earlier following); the signal stops it. */
    const follow = async (uri: string) => {
      await remove(uri);
      const stop = new AbortController();
      followed.set(uri, stop);
      return stop.signal;
    };
    return {
      add: async (uri, taskId, position) => {
        if (position === undefined) return remove(uri);
        void this.updates.follow(taskId, position, await follow(uri), () => notify(uri));
      },
      addUpstream: async (uri) => this.catalog.followResource(uri, () => notify(uri), await follow(uri)),
      remove,
      stop: () => {
        for (const stop of followed.values()) stop.abort();
        followed.clear();
      },
    };
  }

  /** A server for calls of one connected server's tool, by any caller: the call's caller is the request's. */
  private upstreamToolServer(tool: McpTool, track: TrackCall): McpServer {
    const server = this.bareServer();
    this.registerMcpTool(server, tool, callerOfRequest, track);
    return server;
  }

  /** A server with Switchboard's capabilities and none of its tools or methods. */
  private bareServer(): McpServer {
    // `logging` only when upstream log messages may be passed on: clients may then set a level
    // (`logging/setLevel`); the SDK answers it and filters what is sent.
    const logging = this.catalog.declares('logging') ? { logging: {} } : {};
    return new McpServer(SERVER_INFO, {
      capabilities: {
        tools: { listChanged: true },
        ...logging,
        ...BRIDGE_RESOURCE_CAPABILITIES,
        ...upstreamCatalogCapabilities(this.catalog),
        ...MCP_TASK_CAPABILITIES,
      },
      debouncedNotificationMethods: [
        'notifications/tools/list_changed',
        'notifications/resources/list_changed',
        'notifications/prompts/list_changed',
      ],
    });
  }

  /** A server with the tools that never change while Switchboard runs: the built-in tools `caller` may reach, of those `wanted`. */
  private newServer(
    caller: McpCaller,
    callerOf: CallerOf,
    era: () => McpEra,
    wanted: (name: string) => boolean = () => true,
  ): McpServer {
    const builtins = this.builtins
      .definitions()
      .filter((tool) => wanted(tool.name) && caller.scope.allowsTool(tool.name));
    const server = this.bareServer();
    registerTaskMethods(server, era, this.mcpTasks, callerOf, (request, ctx) =>
      this.askCaller.ask(request, callerOf(ctx), ctx, server.server, ctx.mcpReq.signal),
    );
    for (const tool of builtins) {
      server.registerTool(
        tool.name,
        { description: tool.description, inputSchema: this.schemaOf(tool.inputSchema) },
        async (args, ctx) => {
          const { text, isError } = await this.toolPipeline.call(
            tool.name,
            args as Record<string, unknown>,
            ctx.mcpReq.signal,
            `mcp:${callerOf(ctx).owner}`,
          );
          return { content: [{ type: 'text', text }], isError };
        },
      );
    }
    return server;
  }

  /** Registers the hosted agents' tools `caller` may reach, of those `wanted`. */
  private registerAgentTools(
    server: McpServer,
    caller: McpCaller,
    callerOf: CallerOf,
    wanted: (name: string) => boolean = () => true,
  ): RegisteredTool[] {
    return this.handlers
      .all()
      .filter((endpoint) => wanted(agentToolName(endpoint.agent.config.name)) && this.reaches(caller, endpoint))
      .map((endpoint) => this.registerAgentTool(server, endpoint, agentToolName(endpoint.agent.config.name), callerOf));
  }

  /** Registers the connected servers' tools `caller` may reach. */
  private registerMcpTools(server: McpServer, caller: McpCaller, callerOf: CallerOf): RegisteredTool[] {
    return this.mcpTools
      .list()
      .filter((tool) => caller.scope.allowsTool(tool.name))
      .map((tool) => this.registerMcpTool(server, tool, callerOf));
  }

  private registerMcpTool(
    server: McpServer,
    tool: McpTool,
    callerOf: CallerOf,
    track: TrackCall = (call) => call(),
  ): RegisteredTool {
    const { title, annotations, outputSchema } = tool;
    const config = {
      description: tool.description,
      title,
      annotations,
      inputSchema: this.schemaOf(tool.inputSchema),
      outputSchema: outputSchema && this.outputSchemaOf(outputSchema),
    };
    const registered = server.registerTool(tool.name, config, (args, ctx) => {
      const caller = callerOf(ctx);
      return track(() =>
        taskRequested(ctx, caller.taskParamOf?.(ctx.mcpReq.id))
          ? startAsTask(
              this.mcpTasks,
              () => this.mcpTasks.startToolCall(tool.name, args as Record<string, unknown>, caller),
              caller,
              ctx,
            )
          : this.upstreamCalls.run(tool.name, args as Record<string, unknown>, caller, ctx, server.server),
      );
    });
    // Any upstream tool's call can be a durable task wrapping it (and its upstream task, if it runs as one).
    registered.execution = { taskSupport: 'optional' };
    return registered;
  }

  /**
   * What a server for one call answers though it is not listed: an agent under its former tool
   * name, or a tool of a connected MCP server that is down (to say so), when the caller may reach it.
   */
  private registerUnlisted(
    server: McpServer,
    caller: McpCaller,
    callerOf: CallerOf,
    name: string,
    listedMcpTool: boolean,
  ): void {
    const formerlyNamed = this.handlers
      .all()
      .find(
        ({ agent }) => formerAgentToolName(agent.config.name) === name && agentToolName(agent.config.name) !== name,
      );
    if (formerlyNamed) {
      if (this.reaches(caller, formerlyNamed)) this.registerAgentTool(server, formerlyNamed, name, callerOf);
      return;
    }
    if (!listedMcpTool && caller.scope.allowsTool(name)) {
      registerUnavailableMcpTool(server, name, this.mcpTools, (args, ctx) =>
        this.upstreamCalls.run(name, args, callerOf(ctx), ctx, server.server),
      );
    }
  }

  /** Whether the caller may call agent `endpoint` as a tool: its key allows the tool and the agent. */
  private reaches(caller: McpCaller, endpoint: AgentHandler): boolean {
    const { name } = endpoint.agent.config;
    return caller.scope.allowsTool(agentToolName(name)) && caller.scope.allowsAgent(name);
  }

  /** An agent's tool; a call that asks for a task (either era) gets one at once, the agent's A2A task. */
  private registerAgentTool(
    server: McpServer,
    endpoint: AgentHandler,
    name: string,
    callerOf: CallerOf,
  ): RegisteredTool {
    const agent = endpoint.agent.config.name;
    const description = endpoint.agent.config.description || `Switchboard agent "${agent}"`;
    const tool = server.registerTool(name, { description, inputSchema: agentInput }, ({ message }, ctx) => {
      const caller = callerOf(ctx);
      return taskRequested(ctx, caller.taskParamOf?.(ctx.mcpReq.id))
        ? startAsTask(this.mcpTasks, () => this.mcpTasks.start(agent, message, caller), caller, ctx)
        : this.agentCalls.run(endpoint, message, caller, ctx);
    });
    // The SDK's registerTool drops `execution`; tools/list sends what the registered tool holds.
    tool.execution = { taskSupport: 'optional' };
    return tool;
  }

  private schemaOf(jsonSchema: object): ReturnType<typeof fromJsonSchema> {
    let schema = this.schemas.get(jsonSchema);
    if (!schema) this.schemas.set(jsonSchema, (schema = fromJsonSchema(jsonSchema as never)));
    return schema;
  }

  /** An upstream tool's output schema, which checks its results but not the task handle of a call made as a task. */
  private outputSchemaOf(jsonSchema: object): ReturnType<typeof fromJsonSchema> {
    let schema = this.outputSchemas.get(jsonSchema);
    if (!schema) {
      const standard = this.schemaOf(jsonSchema)['~standard'];
      schema = {
        '~standard': {
          ...standard,
          validate: (value) => (isTaskHandleContent(value) ? { value } : standard.validate(value)),
        },
      } as ReturnType<typeof fromJsonSchema>;
      this.outputSchemas.set(jsonSchema, schema);
    }
    return schema;
  }
}

/** The era a live (stdio) connection negotiated: 2026-07-28 and later are the modern one. */
function eraOf(server: McpServer): McpEra {
  const version = server.server.getNegotiatedProtocolVersion?.();
  return version !== undefined && version >= '2026-07-28' ? 'modern' : 'legacy';
}
