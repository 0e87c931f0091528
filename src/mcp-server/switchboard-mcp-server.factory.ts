import { Inject, Injectable } from '@nestjs/common';
import { CallToolResult, fromJsonSchema, McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { A2aEndpoints, type AgentEndpoint } from '../a2a-server/a2a-endpoints.service';
import { MCP_TOOL_SOURCE, McpTool, McpToolSource } from '../mcp-client/mcp-tool-source.interface';
import { BuiltinToolProvider } from '../agents/tools/builtin-tool.provider';
import { ToolPipeline } from '../agents/tools/tool-pipeline.service';
import type { ToolDefinition } from '../agents/tools/tool-provider.interface';
import { AgentToolCall } from './agent-tool-call';
import { BRIDGE_RESOURCE_CAPABILITIES, registerBridge, ResourceSubscriptions } from './bridge-registration';
import { followListenedTasks, ListenRequest } from './listened-tasks';
import type { McpCaller } from './mcp-caller';
import { MCP_SESSION_STORE, McpSessionStore } from './mcp-session-store.interface';
import { LocalSubscriptionChanges, sessionSubscriptions } from './session-subscriptions';
import { SubagentBridge } from './subagent-bridge';
import { TaskUpdates } from './task-updates';
import { registerUnavailableMcpTool } from './unavailable-mcp-tool';
import { SWITCHBOARD_VERSION } from '../version';
import { toolNamePart } from '../config/names.schema';

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
 * long as the connection and follows the tool list as servers connect, drop and change.
 */
@Injectable()
export class SwitchboardMcpServerFactory {
  /** Input schemas converted once per tool (a reconnect or `list_changed` brings new tool objects). */
  private readonly inputSchemas = new WeakMap<ToolDefinition | McpTool, ReturnType<typeof fromJsonSchema>>();

  constructor(
    private readonly endpoints: A2aEndpoints,
    private readonly agentCalls: AgentToolCall,
    @Inject(MCP_TOOL_SOURCE) private readonly mcpTools: McpToolSource,
    private readonly builtins: BuiltinToolProvider,
    private readonly toolPipeline: ToolPipeline,
    private readonly bridge: SubagentBridge,
    private readonly updates: TaskUpdates,
    @Inject(MCP_SESSION_STORE) private readonly sessions: McpSessionStore,
    private readonly subscriptionChanges: LocalSubscriptionChanges,
  ) {}

  /** With `onlyTool`, the server has that tool and no other: all a call to it needs, and cheaper to build. */
  create(caller: McpCaller, onlyTool?: string): McpServer {
    const wanted = (name: string) => onlyTool === undefined || name === onlyTool;
    const agents = this.endpoints.all().filter((endpoint) => wanted(agentToolName(endpoint.agent.config.name)));
    const server = this.newServer(caller, agents, this.builtins.definitions().filter((tool) => wanted(tool.name)));
    const formerlyNamed = onlyTool !== undefined && agents.length === 0 && this.endpoints.all().find((endpoint) => formerAgentToolName(endpoint.agent.config.name) === onlyTool);
    if (formerlyNamed) this.registerAgentTool(server, formerlyNamed, onlyTool, caller);
    const mcpTools = this.mcpTools.list().filter((tool) => wanted(tool.name));
    this.registerMcpTools(server, mcpTools);
    if (onlyTool !== undefined && mcpTools.length === 0) registerUnavailableMcpTool(server, onlyTool, this.mcpTools, (name, args, signal) => this.callMcpTool(name, args, signal));
    if (onlyTool === undefined || onlyTool.startsWith(BRIDGE_TOOL_PREFIX)) {
      registerBridge(server, this.bridge, this.updates, caller, sessionSubscriptions(this.sessions, this.subscriptionChanges, caller.sessionId));
    }
    return server;
  }

  createLive(caller: McpCaller): LiveMcpServer {
    const server = this.newServer(caller, this.endpoints.all(), this.builtins.definitions());
    const notifyResourceUpdated = (uri: string) => void server.server.sendResourceUpdated({ uri }).catch(() => undefined);
    const subscriptions = this.liveSubscriptions(notifyResourceUpdated);
    registerBridge(server, this.bridge, this.updates, caller, subscriptions);
    let registered = this.registerMcpTools(server, this.mcpTools.list());
    // Registering on a connected server announces `notifications/tools/list_changed` (debounced to one).
    const stop = this.mcpTools.onChange(() => {
      for (const tool of registered) tool.remove();
      registered = this.registerMcpTools(server, this.mcpTools.list());
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
  async followListened(listen: ListenRequest, caller: McpCaller, notify: (uri: string) => void, signal: AbortSignal): Promise<void> {
    await followListenedTasks(listen, caller, this.bridge, this.updates, notify, signal);
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
    return {
      add: async (uri, taskId, position) => {
        await remove(uri);
        if (position === undefined) return;
        const stop = new AbortController();
        followed.set(uri, stop);
        void this.updates.follow(taskId, position, stop.signal, () => notify(uri));
      },
      remove,
      stop: () => {
        for (const stop of followed.values()) stop.abort();
        followed.clear();
      },
    };
  }

  /** A server with the tools that never change while Switchboard runs: the agents and the built-in tools. */
  private newServer(caller: McpCaller, agents: AgentEndpoint[], builtins: ToolDefinition[]): McpServer {
    // `logging`: clients may set a level (`logging/setLevel`); the SDK answers it and filters what is sent.
    const server = new McpServer(SERVER_INFO, {
      capabilities: { tools: { listChanged: true }, logging: {}, ...BRIDGE_RESOURCE_CAPABILITIES },
      debouncedNotificationMethods: ['notifications/tools/list_changed'],
    });
    for (const endpoint of agents) this.registerAgentTool(server, endpoint, agentToolName(endpoint.agent.config.name), caller);
    for (const tool of builtins) {
      server.registerTool(tool.name, { description: tool.description, inputSchema: this.inputSchemaOf(tool) }, async (args, ctx) => {
        const { text, isError } = await this.toolPipeline.call(tool.name, args as Record<string, unknown>, ctx.mcpReq.signal, `mcp:${caller.owner}`);
        return { content: [{ type: 'text', text }], isError };
      });
    }
    return server;
  }

  private registerAgentTool(server: McpServer, endpoint: AgentEndpoint, name: string, caller: McpCaller): void {
    const description = endpoint.agent.config.description || `Switchboard agent "${endpoint.agent.config.name}"`;
    server.registerTool(name, { description, inputSchema: agentInput }, ({ message }, ctx) => this.agentCalls.run(endpoint, message, caller, ctx));
  }

  private registerMcpTools(server: McpServer, tools: McpTool[]): RegisteredTool[] {
    return tools.map((tool) =>
      server.registerTool(tool.name, { description: tool.description, inputSchema: this.inputSchemaOf(tool) }, (args, ctx) =>
        this.callMcpTool(tool.name, args as Record<string, unknown>, ctx.mcpReq.signal),
      ),
    );
  }

  private inputSchemaOf(tool: ToolDefinition | McpTool): ReturnType<typeof fromJsonSchema> {
    let schema = this.inputSchemas.get(tool);
    if (!schema) this.inputSchemas.set(tool, (schema = fromJsonSchema(tool.inputSchema as never)));
    return schema;
  }

  /** An unavailable or slow upstream is the tool's failure (`isError`), not a protocol error. */
  private async callMcpTool(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    try {
      return await this.mcpTools.call(name, args, { signal });
    } catch (error) {
      return { content: [{ type: 'text', text: (error as Error).message }], isError: true };
    }
  }
}
