import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { UpstreamTaskRecord } from '../../mcp-client/mcp-tool-source.interface';
import type { ToolKind } from '../../metrics/metrics.service';

/** A tool an agent may call, described as LLM providers take it (JSON Schema input). */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** What a tool call gave back, as text for the model; `isError` when the tool failed or refused. */
export interface ToolResult {
  text: string;
  isError: boolean;
}

/**
 * The agent turn a tool call is made in. Most tools ignore it; those that act on the caller's behalf
 * (delegation runs a task in the caller's scope, limited to the agent's delegates) need it.
 */
export interface ToolCallContext {
  agent: string;
  taskId: string;
  /** The turn's call context: the caller (tenant, user) whose task the turn is. */
  callContext: ServerCallContext;
  /** The agent's own model, for a tool whose server asks for a completion (MCP sampling); absent for agents without one. */
  sample?: Sampler;
}

/** A completion asked for by a tool, as text: the conversation so far and the instructions. */
export interface SamplingRequest {
  systemPrompt?: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
}

export type Sampler = (request: SamplingRequest, signal: AbortSignal) => Promise<{ model: string; text: string }>;

/** Who serves a tool, as the metrics count its calls: an MCP server's tools by server. */
export interface ToolOrigin {
  kind: ToolKind;
  /** The MCP server's configured name; empty for other kinds. */
  server: string;
}

/** A family of tools (MCP servers, built-ins, A2A delegation) behind one interface. */
export interface ToolProvider {
  definitions(): ToolDefinition[];
  /** Whether `name` is one of this provider's tools. */
  has(name: string): boolean;
  /** Who serves `name` if it is (or, for a server that is down, would be) one of this provider's tools; else undefined. */
  originOf(name: string): ToolOrigin | undefined;
  /**
   * `context` is absent for a call from outside any agent turn (an MCP client's, through
   * ToolPipeline.call). `upstreamTask` records (or follows) the call's MCP task on its server, for
   * tools that run as one; other tools ignore it.
   */
  call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    context?: ToolCallContext,
    upstreamTask?: UpstreamTaskRecord,
  ): Promise<ToolResult>;
}

export const TOOL_PROVIDERS = Symbol('TOOL_PROVIDERS');
