import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { isTerminal } from '../../common/task-states';
import type { AccessScope } from '../../security/access-scope';
import type { CallerOf } from '../mcp-caller';
import type { ResourceSubscriptions, UpstreamSubscriptions } from '../bridge/resource-subscriptions';
import type { SubagentBridge } from '../bridge/subagent-bridge';
import {
  AGENT_URI_TEMPLATE,
  agentNameOf,
  TASK_URI_TEMPLATE,
  taskIdOf,
  taskResourceJson,
  taskUri,
} from '../bridge/task-resource';
import { startAsTask, taskRequested } from '../mcp-tasks/mcp-task-methods';
import type { McpTasks } from '../mcp-tasks/mcp-tasks.service';
import type { TaskUpdates } from '../bridge/task-updates';

/** The capabilities the bridge needs: resources that can be subscribed to, in a list that changes with the catalog. */
export const BRIDGE_RESOURCE_CAPABILITIES = { resources: { subscribe: true, listChanged: true } } as const;

const startInput = z.object({
  subagentUri: z.string().min(1).describe('The subagent, as a2a-agent://{name} (see resources/list)'),
  text: z.string().min(1).describe('The first message of the task'),
});
const sendInput = z.object({
  taskId: z.string().min(1).describe('The task, from subagent_start'),
  text: z.string().min(1).describe('The next message'),
});
const cancelInput = z.object({ taskId: z.string().min(1).describe('The task, from subagent_start') });
/** `state` when run as an MCP task: its result is the ended task's. */
const startOutput = z.object({ taskUri: z.string(), taskId: z.string(), state: z.string().optional() });

/**
 * Registers the ARDF bridge on `server`: the agent and task resources, the `subagent_*` tools
 * `scope` allows, and subscriptions. Each handler serves the caller of its request (`callerOf`).
 */
export function registerBridge(
  server: McpServer,
  bridge: SubagentBridge,
  updates: TaskUpdates,
  scope: AccessScope,
  callerOf: CallerOf,
  subscriptions: ResourceSubscriptions,
  upstream: UpstreamSubscriptions,
  mcpTasks: McpTasks,
): void {
  const agents = new ResourceTemplate(AGENT_URI_TEMPLATE, {
    list: (ctx) => ({
      resources: bridge
        .agents()
        .filter(({ name }) => callerOf(ctx).scope.allowsAgent(name))
        .map(({ uri, name, description }) => ({
          uri,
          name,
          mimeType: 'application/json',
          ...(description && { description }),
        })),
    }),
  });
  server.registerResource(
    'subagent',
    agents,
    {
      description: 'An agent (hosted or external): its ARDF subagent@v0.1 manifest, then its A2A agent card',
      mimeType: 'application/json',
    },
    (uri, variables, ctx) => {
      const contents = bridge.readAgent(String(variables.name), callerOf(ctx).baseUrl);
      if (!contents) throw new ResourceNotFoundError(uri.href);
      return contents;
    },
  );
  const tasks = new ResourceTemplate(TASK_URI_TEMPLATE, { list: undefined });
  server.registerResource(
    'task',
    tasks,
    {
      description: 'A task of yours: its state, status message, history and artifacts (subscribe to hear of changes)',
      mimeType: 'application/json',
    },
    async (uri, _variables, ctx) => {
      const taskId = taskIdOf(uri.href);
      const task = taskId === undefined ? undefined : await bridge.ownTask(taskId, callerOf(ctx));
      if (!task) throw new ResourceNotFoundError(uri.href);
      return {
        contents: [
          { uri: taskUri(task.id), mimeType: 'application/json', text: JSON.stringify(taskResourceJson(task)) },
        ],
      };
    },
  );

  const tools = {
    subagent_start: server.registerTool(
      'subagent_start',
      {
        description:
          'Starts a task of a subagent (a2a-agent://{name}) with a message; answers at once with the task resource to read or subscribe to',
        inputSchema: startInput,
        outputSchema: startOutput,
      },
      ({ subagentUri, text }, ctx) => {
        const caller = callerOf(ctx);
        const agent = agentNameOf(subagentUri);
        // Asked as an MCP task, the subagent's task is that task.
        return agent !== undefined && taskRequested(ctx, caller.taskParamOf?.(ctx.mcpReq.id))
          ? startAsTask(mcpTasks, () => mcpTasks.start(agent, text, caller), caller, ctx)
          : bridge.start(subagentUri, text, caller);
      },
    ),
    subagent_send: server.registerTool(
      'subagent_send',
      { description: 'Sends the next message to a task (one waiting for input, typically)', inputSchema: sendInput },
      ({ taskId, text }, ctx) => bridge.send(taskId, text, callerOf(ctx)),
    ),
    subagent_cancel: server.registerTool(
      'subagent_cancel',
      { description: 'Cancels a task', inputSchema: cancelInput },
      ({ taskId }, ctx) => bridge.cancel(taskId, callerOf(ctx)),
    ),
  };
  tools.subagent_start.execution = { taskSupport: 'optional' };
  for (const [name, tool] of Object.entries(tools)) if (!scope.allowsTool(name)) tool.remove();

  server.server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    if (upstream.subscribable(request.params.uri)) {
      await subscriptions.addUpstream(request.params.uri);
      return {};
    }
    const taskId = subscribableTask(request.params.uri);
    // The position first: a change between reading it and reading the task is then still heard.
    const position = await updates.position(taskId);
    const task = await bridge.ownTask(taskId, callerOf(ctx));
    if (!task) throw new ResourceNotFoundError(request.params.uri);
    await subscriptions.add(taskUri(taskId), taskId, isTerminal(task) ? undefined : position);
    return {};
  });
  server.server.setRequestHandler('resources/unsubscribe', async (request) => {
    const { uri } = request.params;
    await subscriptions.remove(upstream.subscribable(uri) ? uri : taskUri(subscribableTask(uri)));
    return {};
  });
}

function subscribableTask(uri: string): string {
  const taskId = taskIdOf(uri);
  if (taskId === undefined)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Only task resources (a2a://task/{taskId}) and resources of connected servers that offer subscriptions (mcp://{server}/{uri}) can be subscribed to, not ${uri}`,
    );
  return taskId;
}
