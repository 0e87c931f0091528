import type { Task } from '@a2a-js/sdk';
import {
  type CallToolResult,
  type ClientCapabilities,
  INTERNAL_ERROR,
  type McpServer,
  MissingRequiredClientCapabilityError,
  RELATED_TASK_META_KEY,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { UpstreamRequest } from '../../mcp-client/mcp-tool-source.interface';
import { toolCallResultOf } from '../../agents/tool-call-task';
import { taskResult } from '../tools/agent-tool-call';
import { missingCapabilities, modernClientCapabilities } from '../tools/ask-caller';
import { taskUri } from '../bridge/task-resource';
import type { CallerOf, McpCaller } from '../mcp-caller';
import { mcpTaskFields, mcpTaskStatus, taskV1, taskV2, type McpTaskTerms } from './mcp-task-status';
import type { McpTasks } from './mcp-tasks.service';

/** The 2026-07-28 tasks extension. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What a server declares for tasks in each era: 2025-11-25 `capabilities.tasks`, the 2026-07-28 extension (the SDK drops what an era does not know). */
export const MCP_TASK_CAPABILITIES = {
  tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
  extensions: { [TASKS_EXTENSION]: {} },
};

export type McpEra = 'legacy' | 'modern';

/** Asks the caller of the request in `ctx` (elicitation), for a 2025-era task waiting for input. */
export type AskCallerOf = (request: UpstreamRequest, ctx: ServerContext) => Promise<object>;

const ANSWER_SCHEMA = {
  type: 'object' as const,
  properties: { answer: { type: 'string' as const, description: 'Your answer to the agent' } },
  required: ['answer'],
};
const byTaskId = z.object({ taskId: z.string() }).passthrough();
const byCursor = z.object({ cursor: z.string().optional() }).passthrough();

/**
 * Whether the `tools/call` of `ctx` asked to run as a task: in the 2026-07-28 era, its client
 * declares the tasks extension; in 2025-11-25, the call carries `task` (`legacyTask`, which the SDK
 * does not pass to tool callbacks).
 */
export function taskRequested(ctx: ServerContext, legacyTask: unknown): boolean {
  const modern = modernClientCapabilities(ctx);
  if (modern) return declaresTasksExtension(modern);
  return typeof legacyTask === 'object' && legacyTask !== null;
}

function declaresTasksExtension(capabilities: ClientCapabilities): boolean {
  return (capabilities as { extensions?: Record<string, unknown> }).extensions?.[TASKS_EXTENSION] !== undefined;
}

/**
 * What a 2026-07-28 tasks method's client declared, refused with -32021 when that lacks the tasks
 * extension (SEP-2663: also for a client declaring only 2025-11-25's `tasks`).
 */
function tasksExtensionClient(ctx: ServerContext, method: string): ClientCapabilities {
  const declared = modernClientCapabilities(ctx) ?? {};
  if (!declaresTasksExtension(declared)) {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `${method} needs the ${TASKS_EXTENSION} extension declared in the request's client capabilities`,
    );
  }
  return declared;
}

/**
 * The structured content of the task handles startAsTask answers: what a tool's output schema is
 * not about (an upstream tool's schema describes its result, which comes through `tasks/result`).
 */
const taskHandleContents = new WeakSet<object>();

export function isTaskHandleContent(value: unknown): boolean {
  return typeof value === 'object' && value !== null && taskHandleContents.has(value);
}

/** Starts a task (`start`: an agent's turn, a tool call) for a tool call that asked for one: the era's task handle at once, the task going on; a start refused is the tool's error. */
export async function startAsTask(
  tasks: McpTasks,
  start: () => Promise<Task>,
  caller: McpCaller,
  ctx: ServerContext,
): Promise<CallToolResult> {
  let task: Task;
  try {
    task = await start();
  } catch (error) {
    return { content: [{ type: 'text', text: `No task started: ${(error as Error).message}` }], isError: true };
  }
  const modern = modernClientCapabilities(ctx) !== undefined;
  if (!modern && caller.sessionId !== undefined) await tasks.announceTo(caller.sessionId, task.id);
  // The task's resource and id as structured content (what `subagent_start` answers without a task), a
  // tool with an output schema needing some. The SDK types tool results as CallToolResult; the eras'
  // task answers are what their clients read.
  const structuredContent = { taskUri: taskUri(task.id), taskId: task.id };
  taskHandleContents.add(structuredContent);
  return (modern
    ? { resultType: 'task', ...taskV2(task, tasks.terms()), structuredContent }
    : { content: [], structuredContent, task: taskV1(task, tasks.terms()) }) as unknown as CallToolResult;
}

/**
 * The tasks methods, answered from Switchboard's durable tasks in the caller's scope: 2025-11-25's
 * `tasks/get`, `tasks/result` (waits for the end on any replica, asking the caller for input on
 * the way), `tasks/list`, `tasks/cancel`; the 2026-07-28 extension's `tasks/get` (with the outcome,
 * or the question of a task waiting for input), `tasks/update` (answers), `tasks/cancel`. `era`
 * says which a request is of (a stdio connection learns it at `initialize`). Each serves the caller
 * of its request (`callerOf`).
 */
export function registerTaskMethods(
  server: McpServer,
  era: () => McpEra,
  tasks: McpTasks,
  callerOf: CallerOf,
  askCaller: AskCallerOf,
): void {
  const terms = tasks.terms();
  server.server.setRequestHandler('tasks/get', { params: byTaskId }, async ({ taskId }, ctx) => {
    const caller = callerOf(ctx);
    if (era() === 'legacy') return taskV1(await tasks.get(taskId, caller), terms);
    const declared = tasksExtensionClient(ctx, 'tasks/get');
    const task = await tasks.get(taskId, caller);
    return { resultType: 'complete', ...taskV2(task, terms), ...outcomeV2(task, declared) };
  });
  server.server.setRequestHandler('tasks/cancel', { params: byTaskId }, async ({ taskId }, ctx) => {
    const caller = callerOf(ctx);
    if (era() === 'legacy') return taskV1(await tasks.cancel(taskId, caller), terms);
    tasksExtensionClient(ctx, 'tasks/cancel');
    await tasks.cancel(taskId, caller);
    return { resultType: 'complete' };
  });
  server.server.setRequestHandler('tasks/list', { params: byCursor }, async ({ cursor }, ctx) => {
    const page = await tasks.list(cursor, callerOf(ctx));
    return {
      tasks: page.tasks.map((task) => taskV1(task, terms)),
      ...(page.nextCursor && { nextCursor: page.nextCursor }),
    };
  });
  server.server.setRequestHandler('tasks/result', { params: byTaskId }, async ({ taskId }, ctx) => {
    const caller = callerOf(ctx);
    const ask = async (waiting: Task) => {
      const answer = (await askCaller(
        {
          method: 'elicitation/create',
          params: { ...question(waiting), _meta: { [RELATED_TASK_META_KEY]: { taskId } } },
        },
        ctx,
      )) as ElicitAnswer;
      await answerTask(tasks, taskId, answer, caller);
    };
    // A session is asked on its GET stream (sessionMessagesOf), where clients that never call tasks/result early listen too.
    const task = await tasks.ended(taskId, caller, ctx.mcpReq.signal, caller.sessionId === undefined ? ask : undefined);
    const result = mcpTaskResult(task);
    return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
  });
  server.server.setRequestHandler('tasks/update', { params: byTaskId }, async ({ taskId }, ctx) => {
    if (era() === 'modern') tasksExtensionClient(ctx, 'tasks/update');
    const caller = callerOf(ctx);
    const task = await tasks.get(taskId, caller);
    const answer = ctx.mcpReq.inputResponses?.[questionKey(task)] as ElicitAnswer | undefined;
    if (answer !== undefined) await answerTask(tasks, taskId, answer, caller);
    return { resultType: 'complete' };
  });
}

/**
 * What a 2025-era session's GET stream carries for the status of a task it started: the
 * notification, and while the task waits for input its question, as a request whose id names the
 * task and the wait (so the answer, POSTed to any replica, finds both; a second answer to a wait
 * already over is ignored).
 */
export function sessionMessagesOf(task: Task, terms: McpTaskTerms): object[] {
  const notification = { jsonrpc: '2.0', method: 'notifications/tasks/status', params: taskV1(task, terms) };
  if (mcpTaskStatus(task) !== 'input_required') return [notification];
  const params = { ...question(task), _meta: { [RELATED_TASK_META_KEY]: { taskId: task.id } } };
  return [
    notification,
    {
      jsonrpc: '2.0',
      id: `${QUESTION_ID_PREFIX}${task.id}:${task.status?.timestamp ?? ''}`,
      method: 'elicitation/create',
      params,
    },
  ];
}

/** Takes a session's answer to a question `sessionMessagesOf` asked; false for any other message. */
export async function takeSessionAnswer(tasks: McpTasks, message: unknown, caller: McpCaller): Promise<boolean> {
  const asked = questionOf(message);
  if (!asked) return false;
  const task = await tasks.get(asked.taskId, caller).catch(() => undefined);
  const result = (message as { result?: ElicitAnswer }).result;
  // An error answer, or one to a wait already over, changes nothing.
  if (task && result && mcpTaskStatus(task) === 'input_required' && task.status?.timestamp === asked.waitingSince)
    await answerTask(tasks, task.id, result, caller);
  return true;
}

const QUESTION_ID_PREFIX = 'switchboard-task:';

function questionOf(message: unknown): { taskId: string; waitingSince: string } | undefined {
  const id = (message as { id?: unknown } | null)?.id;
  if (
    typeof id !== 'string' ||
    !id.startsWith(QUESTION_ID_PREFIX) ||
    (message as { method?: unknown }).method !== undefined
  )
    return undefined;
  const rest = id.slice(QUESTION_ID_PREFIX.length);
  const split = rest.indexOf(':');
  return split < 0 ? undefined : { taskId: rest.slice(0, split), waitingSince: rest.slice(split + 1) };
}

interface ElicitAnswer {
  action?: string;
  content?: Record<string, unknown>;
}

/** An accepted answer is the task's next message; a declined or cancelled one cancels the task. */
async function answerTask(tasks: McpTasks, taskId: string, answer: ElicitAnswer, caller: McpCaller): Promise<void> {
  if (answer.action !== 'accept') {
    await tasks.cancel(taskId, caller);
    return;
  }
  const text =
    typeof answer.content?.answer === 'string' ? answer.content.answer : JSON.stringify(answer.content ?? {});
  await tasks.answer(taskId, text, caller);
}

/**
 * What a 2026-07-28 `tasks/get` adds for the task's status: its result, its error, or its question,
 * which a client that did not declare elicitation is not sent: -32021 names what it lacks.
 */
function outcomeV2(task: Task, declared: ClientCapabilities): Record<string, unknown> {
  switch (mcpTaskStatus(task)) {
    case 'completed':
      return { result: { resultType: 'complete', ...mcpTaskResult(task) } };
    case 'failed':
      return { error: { code: INTERNAL_ERROR, message: mcpTaskFields(task).statusMessage ?? 'The task failed.' } };
    case 'input_required': {
      const asked = { method: 'elicitation/create' as const, params: question(task) };
      const missing = missingCapabilities(asked, declared);
      if (missing)
        throw new MissingRequiredClientCapabilityError(
          { requiredCapabilities: missing },
          `Task ${task.id} waits for an answer, asked by elicitation, which the request's client capabilities do not declare`,
        );
      return { inputRequests: { [questionKey(task)]: asked } };
    }
    default:
      return {};
  }
}

/** An ended task's result: a tool call's as its server gave it, an agent's answer as the agent's tool gives it. */
function mcpTaskResult(task: Task): CallToolResult {
  return toolCallResultOf(task) ?? taskResult(task);
}

/** The question of a task waiting for input, as a form with one answer field. */
function question(task: Task): { message: string; requestedSchema: typeof ANSWER_SCHEMA } {
  return {
    message: mcpTaskFields(task).statusMessage ?? 'The agent needs more input.',
    requestedSchema: ANSWER_SCHEMA,
  };
}

/** One key per wait for input (the status it began with), so an answer to an earlier question is not taken for this one. */
function questionKey(task: Task): string {
  return `a2a:${task.status?.timestamp ?? ''}`;
}
