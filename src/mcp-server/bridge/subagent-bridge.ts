import { CancelTaskRequest, GetTaskRequest, SendMessageRequest, Task } from '@a2a-js/sdk';
import { Injectable, Logger } from '@nestjs/common';
import type { CallToolResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { randomUUID } from 'node:crypto';
import { ExternalAgents } from '../../a2a-client/external-agents.service';
import { AgentHandlers, type AgentHandler } from '../../a2a-server/agent-handlers.service';
import { AgentCardFactory } from '../../a2a-server/agent-card.factory';
import { configuredBaseUrl } from '../../a2a-server/base-url';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import type { McpCaller } from '../mcp-caller';
import {
  agentOfTask,
  agentNameOf,
  agentUri,
  BRIDGE_AGENT_METADATA_KEY,
  BRIDGE_STARTED_AT_METADATA_KEY,
  TASK_URI_TEMPLATE,
  taskUri,
} from './task-resource';
import { agentRefusal } from '../../security/access-scope';
import { toolOfTask } from '../../agents/tool-call-task';

const BRIDGE_TOOLS = [{ name: 'subagent_start' }, { name: 'subagent_send' }, { name: 'subagent_cancel' }];
const JSON_MIME = 'application/json';

/** An agent the bridge offers as `a2a-agent://{name}`. */
export interface BridgedAgent {
  name: string;
  uri: string;
  description: string;
}

/**
 * The ARDF `subagent@v0.1` bridge's logic: hosted agents and external agents (through their
 * delegates) published as `a2a-agent://{name}`, their tasks as `a2a://task/{id}`, and the
 * `subagent_*` operations run through each agent's A2A handler with the caller's own context, so
 * tasks are the caller's durable tasks, as if sent over A2A.
 */
@Injectable()
export class SubagentBridge {
  private readonly logger = new Logger(SubagentBridge.name);
  private readonly a2a: SwitchboardConfig['a2a'];
  /** Where clients reach this service when a request does not say (stdio). */
  private readonly defaultBaseUrl: string;

  constructor(
    private readonly handlers: AgentHandlers,
    private readonly external: ExternalAgents,
    private readonly cards: AgentCardFactory,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.a2a = config.get('a2a', { infer: true });
    this.defaultBaseUrl = configuredBaseUrl(config.get('server', { infer: true }));
  }

  agents(): BridgedAgent[] {
    const hosted = this.handlers.all().map(({ agent }) => agent.config);
    const names = new Set(hosted.map((agent) => agent.name));
    const external = this.handlers
      .delegates()
      .map(({ agent }) => agent.config)
      .filter((agent) => !names.has(agent.name));
    return [...hosted, ...external].map((agent) => ({
      name: agent.name,
      uri: agentUri(agent.name),
      description: agent.description,
    }));
  }

  /**
   * What `resources/read` of agent `name` answers: its ARDF manifest, then its agent card (or why
   * there is none), with URLs as seen from `requestBaseUrl`; undefined when there is no such agent.
   */
  readAgent(name: string, requestBaseUrl: string | undefined): ReadResourceResult | undefined {
    const baseUrl = requestBaseUrl ?? this.defaultBaseUrl;
    const uri = agentUri(name);
    const hosted = this.handlers.find(name);
    if (hosted) {
      const cardUrl = `${baseUrl.replace(/\/+$/, '')}${this.a2a.listen_path}/agents/${name}/agent-card.json`;
      const manifest = synthesizedManifest(name, hosted.agent.config.description, cardUrl);
      return {
        contents: [jsonContent(uri, manifest), jsonContent(cardUrl, this.cards.document(hosted.agent.config, baseUrl))],
      };
    }
    const agent = this.external.find(name);
    if (!agent || !this.handlers.findDelegate(name)) return undefined;
    const status = agent.status();
    const cardUrl = status.card_url ?? agent.config.url;
    const manifest =
      agent.config.manifest ??
      synthesizedManifest(name, this.handlers.findDelegate(name)!.agent.config.description, cardUrl);
    const card = agent.cardDocument;
    const cardContent = card
      ? jsonContent(cardUrl, card)
      : {
          uri: cardUrl,
          mimeType: 'text/plain',
          text: `The agent card of "${name}" is not available (${status.state}${status.error ? `: ${status.error}` : ''}).`,
        };
    return { contents: [jsonContent(uri, manifest), cardContent] };
  }

  /** Starts a task with `text` (a non-blocking send: the task is returned as soon as it exists). */
  async start(subagentUri: string, text: string, caller: McpCaller): Promise<CallToolResult> {
    const name = agentNameOf(subagentUri);
    if (name === undefined || !this.endpointOf(name))
      return errorResult(
        `Unknown subagent ${JSON.stringify(subagentUri)}: expected a2a-agent://{name} of an agent in resources/list.`,
      );
    try {
      const task = await this.startTask(name, text, caller);
      const payload = { taskUri: taskUri(task.id), taskId: task.id };
      return {
        content: [
          { type: 'resource_link', uri: payload.taskUri, name: `Task ${task.id} of ${name}`, mimeType: JSON_MIME },
          { type: 'text', text: JSON.stringify(payload) },
        ],
        structuredContent: payload,
      };
    } catch (error) {
      return this.failed(
        error instanceof AgentNotAllowedError ? 'No task started' : `Agent "${name}" could not start a task`,
        error,
        {
          agent: name,
        },
      );
    }
  }

  /** Continues task `taskId` (typically waiting for input) with `text`, without waiting for the turn. */
  async send(taskId: string, text: string, caller: McpCaller): Promise<CallToolResult> {
    try {
      await this.continueTask(taskId, text, caller);
      return { content: [{ type: 'text', text: `Message sent to task ${taskId}.` }], structuredContent: { ok: true } };
    } catch (error) {
      return this.failed(`Task ${taskId}: the message was not sent`, error, { taskId });
    }
  }

  async cancel(taskId: string, caller: McpCaller): Promise<CallToolResult> {
    try {
      await this.cancelTask(taskId, caller);
      return { content: [{ type: 'text', text: `Task ${taskId} canceled.` }], structuredContent: { canceled: true } };
    } catch (error) {
      return this.failed(`Task ${taskId} could not be canceled`, error, { taskId });
    }
  }

  /**
   * Starts a task of agent `name` (hosted, or an external agent's delegate) with `text`, recording
   * the agent in the message so the task can be continued and read as the bridge's; the task as it
   * first stands. Throws when the agent is unknown, out of the caller's reach, or answers without a task.
   */
  async startTask(name: string, text: string, caller: McpCaller): Promise<Task> {
    const endpoint = this.endpointOf(name);
    if (!endpoint) throw new Error(`no agent named "${name}"`);
    if (!caller.scope.allowsAgent(name)) throw new AgentNotAllowedError(agentRefusal(caller.owner, name));
    const result = await endpoint.handler.sendMessage(sendRequest(text, endpoint), caller.context);
    if (!('status' in result)) throw new Error(`agent "${name}" answered with a message and started no task`);
    return result;
  }

  /** Sends `text` as the next message of the caller's task `taskId`, without waiting for the turn. */
  async continueTask(taskId: string, text: string, caller: McpCaller): Promise<void> {
    const endpoint = await this.endpointOfTask(taskId, caller);
    const task = await this.task(taskId, caller);
    await endpoint.handler.sendMessage(sendRequest(text, endpoint, task), caller.context);
  }

  async cancelTask(taskId: string, caller: McpCaller): Promise<Task> {
    const endpoint = await this.endpointOfTask(taskId, caller);
    return endpoint.handler.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }), caller.context);
  }

  /** The caller's task `taskId`; undefined when it does not exist or belongs to someone else. */
  async ownTask(taskId: string, caller: McpCaller): Promise<Task | undefined> {
    try {
      return await this.task(taskId, caller);
    } catch {
      return undefined;
    }
  }

  private task(taskId: string, caller: McpCaller): Promise<Task> {
    // Tasks are read from the shared store, scoped to the caller: any agent's handler reads any of them.
    return this.handlers.primary().handler.getTask(GetTaskRequest.fromJSON({ id: taskId }), caller.context);
  }

  private async endpointOfTask(taskId: string, caller: McpCaller): Promise<AgentHandler> {
    const task = await this.task(taskId, caller);
    const tool = toolOfTask(task);
    if (tool !== undefined) {
      if (!caller.scope.allowsTool(tool)) throw new AgentNotAllowedError(`"${caller.owner}" may not call ${tool}`);
      return this.handlers.toolCalls;
    }
    const name = agentOfTask(task);
    const endpoint = name === undefined ? undefined : this.endpointOf(name);
    if (name === undefined || !endpoint)
      throw new Error(`its agent is not known here (tasks not started with subagent_start are reached over A2A)`);
    if (!caller.scope.allowsAgent(name)) throw new AgentNotAllowedError(agentRefusal(caller.owner, name));
    return endpoint;
  }

  /** A hosted agent, else an external agent's delegate. */
  private endpointOf(name: string): AgentHandler | undefined {
    return this.handlers.find(name) ?? this.handlers.findDelegate(name);
  }

  private failed(what: string, error: unknown, fields: Record<string, string | undefined>): CallToolResult {
    const reason = (error as Error)?.message ?? String(error);
    this.logger.warn({ ...fields, err: reason }, 'MCP subagent tool failed');
    return errorResult(`${what}: ${reason}`);
  }
}

class AgentNotAllowedError extends Error {}

/** The manifest of an agent that has none of its own, in the shape an ARDF `subagent@v0.1` file has. */
function synthesizedManifest(name: string, description: string, cardUrl: string): Record<string, unknown> {
  return {
    type: 'subagent',
    id: name,
    name,
    ...(description && { description }),
    a2a: { agentCardUri: cardUrl },
    mcpBridge: { tools: BRIDGE_TOOLS },
    taskResourceTemplate: TASK_URI_TEMPLATE,
  };
}

function sendRequest(text: string, endpoint: AgentHandler, task?: Task): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text }],
      ...(task && { taskId: task.id, contextId: task.contextId }),
      metadata: {
        [BRIDGE_AGENT_METADATA_KEY]: endpoint.agent.config.name,
        ...(!task && { [BRIDGE_STARTED_AT_METADATA_KEY]: new Date().toISOString() }),
      },
    },
    configuration: { returnImmediately: true },
  });
}

function jsonContent(uri: string, value: unknown): { uri: string; mimeType: string; text: string } {
  return { uri, mimeType: JSON_MIME, text: JSON.stringify(value) };
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
