/** MCP clients of the ARDF bridge, with the API key of one's choice, and what the bridge's answers hold. */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { bearer, TEST_API_KEY } from '../../support/test-app';

export const OTHER_API_KEY = 'other-key-0123456789abcdef';

/** Every `notifications/resources/updated` a client heard, and a way to wait for one. */
export class UpdateLog {
  readonly uris: string[] = [];
  private readonly waiters: (() => void)[] = [];

  record = (uri: string): void => {
    this.uris.push(uri);
    for (const wake of this.waiters.splice(0)) wake();
  };

  /** Resolves once `uri` has been announced more than `seen` times (fails after `timeoutMs`). */
  async next(uri: string, seen: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.count(uri) <= seen) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `no notifications/resources/updated for ${uri} after ${seen}; heard ${JSON.stringify(this.uris)}`,
        );
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, left);
        this.waiters.push(() => (clearTimeout(timer), wake()));
      });
    }
  }

  count(uri: string): number {
    return this.uris.filter((heard) => heard === uri).length;
  }
}

/** The 1.x SDK client (2025-11-25, a session and its GET stream), logging resource updates. */
export async function bridgeClientV1(
  baseUrl: string,
  key = TEST_API_KEY,
  fetchImpl?: typeof fetch,
): Promise<{ client: ClientV1; transport: TransportV1; updates: UpdateLog }> {
  const transport = new TransportV1(new URL('/mcp', baseUrl), {
    requestInit: { headers: bearer(key) },
    fetch: fetchImpl,
  });
  const client = new ClientV1({ name: 'bridge-test-v1', version: '1.0.0' });
  const updates = new UpdateLog();
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
    updates.record(notification.params.uri),
  );
  await client.connect(transport);
  return { client, transport, updates };
}

/** The 2.x client pinned to 2026-07-28 (stateless; `subscriptions/listen`), logging resource updates. */
export async function bridgeClientV2(
  baseUrl: string,
  key = TEST_API_KEY,
  fetchImpl?: typeof fetch,
): Promise<{ client: ClientV2; updates: UpdateLog }> {
  const transport = new TransportV2(new URL('/mcp', baseUrl), {
    requestInit: { headers: bearer(key) },
    fetch: fetchImpl,
  });
  const client = new ClientV2(
    { name: 'bridge-test-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const updates = new UpdateLog();
  client.setNotificationHandler('notifications/resources/updated', (notification) =>
    updates.record(notification.params.uri),
  );
  await client.connect(transport);
  return { client, updates };
}

export interface TaskView {
  taskId: string;
  contextId: string;
  agent?: string;
  state: string;
  message: string;
  history: { role: string; parts: { text?: string }[] }[];
  artifacts: { parts: { text?: string }[] }[];
}

interface ResourceReader {
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
}

/** The task resource as read by `client`. */
export async function readTask(client: ResourceReader, taskUri: string): Promise<TaskView> {
  const { contents } = await client.readResource({ uri: taskUri });
  return JSON.parse((contents[0] as { text: string }).text) as TaskView;
}

export function artifactText(task: TaskView): string {
  return task.artifacts.flatMap((artifact) => artifact.parts.map((part) => part.text ?? '')).join('');
}

/** `subagent_start`'s structured answer. */
export function startedTask(result: unknown): { taskUri: string; taskId: string } {
  const structured = (result as { structuredContent?: { taskUri: string; taskId: string } }).structuredContent;
  if (!structured) throw new Error(`subagent_start gave no task: ${JSON.stringify(result)}`);
  return structured;
}

/** Reads the task after each announced change until it is in `state`; returns the states read. */
export async function statesUntil(
  updates: UpdateLog,
  client: ResourceReader,
  uri: string,
  state: string,
): Promise<string[]> {
  const states: string[] = [];
  for (let seen = 0; ; seen++) {
    await updates.next(uri, seen);
    const task = await readTask(client, uri);
    states.push(task.state);
    if (task.state === state) return states;
  }
}
