import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListTasksRequest, Role, type Task, TaskState } from '@a2a-js/sdk';
import { partsText } from '../../../src/common/parts';
import { sdkClient } from '../../support/sdk-client';
import { eventually } from '../../support/eventually';
import { bearer } from '../../support/test-app';

export interface ClientOptions {
  /** How the client reaches the server, e.g. through a fake load balancer spreading requests over replicas. */
  fetch?: typeof fetch;
  /** Handlers for `notifications/{tools,resources}/list_changed` (the GET stream in the 2025 era, `subscriptions/listen` in 2026-07-28). */
  listChanged?: {
    tools: { onChanged: (error: Error | null, tools: { name: string }[] | null) => void };
    resources?: { onChanged: (error: Error | null, resources: { uri: string }[] | null) => void };
  };
  /** The API key presented; the tests' default key when unset. */
  key?: string;
}

/** The 1.x SDK's client: 2025-era (`initialize`, `Mcp-Session-Id`). */
export async function connectV1(
  baseUrl: string,
  options: ClientOptions = {},
): Promise<{ client: ClientV1; transport: TransportV1 }> {
  const transport = new TransportV1(new URL('/mcp', baseUrl), {
    requestInit: { headers: bearer(options.key) },
    fetch: options.fetch,
  });
  const client = new ClientV1({ name: 'switchboard-test-v1', version: '1.0.0' }, { listChanged: options.listChanged });
  await client.connect(transport);
  return { client, transport };
}

/** The v2 SDK's client negotiating the era (`auto`): 2026-07-28, stateless, against Switchboard. */
export async function connectV2(baseUrl: string, options: ClientOptions = {}): Promise<ClientV2> {
  const transport = new TransportV2(new URL('/mcp', baseUrl), {
    requestInit: { headers: bearer(options.key) },
    fetch: options.fetch,
  });
  const client = new ClientV2(
    { name: 'switchboard-test-v2', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' }, listChanged: options.listChanged },
  );
  await client.connect(transport);
  return client;
}

export function textOf(result: object): string {
  const content = 'content' in result ? (result.content as { type: string; text?: string }[]) : [];
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** The first progress message of an agent call names its task. */
export const TASK_ID_MESSAGE = /^task ([0-9a-f-]{36}):/;

/**
 * Cancels a call of agent `slow` once its first chunk arrives: `onprogress` for the call's
 * options, `signal` to pass along, and the task id read from the first progress message.
 */
export function cancelOnFirstChunk() {
  const abort = new AbortController();
  let taskId: string | undefined;
  return {
    signal: abort.signal,
    onprogress: (progress: { message?: string }) => {
      taskId ??= TASK_ID_MESSAGE.exec(progress.message ?? '')?.[1];
      if (progress.message === '01') abort.abort();
    },
    taskId: () => taskId,
  };
}

/** Waits until the task, read over A2A with the SDK's own client, has been canceled. */
export async function expectCanceled(baseUrl: string, taskId: string | undefined): Promise<void> {
  expect(taskId).toBeDefined();
  const client = await sdkClient(baseUrl, 'slow', 'JSONRPC');
  await eventually(
    async () => (await client.getTask({ id: taskId!, tenant: '' })).status?.state,
    (state) => state === TaskState.TASK_STATE_CANCELED,
  );
}

/** The task of agent `agent` whose first message is `text`, read over A2A once it has reached `state`. */
export async function taskWithMessage(
  baseUrl: string,
  agent: string,
  text: string,
  state: TaskState,
): Promise<Task | undefined> {
  const client = await sdkClient(baseUrl, agent, 'JSONRPC');
  const find = async () => {
    const { tasks } = await client.listTasks(ListTasksRequest.fromJSON({ pageSize: 100 }));
    return tasks.find((task) =>
      task.history.some((message) => message.role === Role.ROLE_USER && partsText(message.parts) === text),
    );
  };
  return eventually(find, (task) => task?.status?.state === state);
}
