/**
 * The load: tasks created over v1.0 JSON-RPC, rotating through the three ways a client starts one (a
 * blocking SendMessage, a SendStreamingMessage read to its end, a non-blocking SendMessage), each
 * answer checked, with `concurrency` calls in flight.
 */
import { randomUUID } from 'node:crypto';

const TEXT = 'hello retention bench';
const CALL_TIMEOUT_MS = 60_000;

export interface Api {
  baseUrl: string;
  headers: Record<string, string>;
}

type Send = (api: Api) => Promise<void>;

function request(method: string, returnImmediately = false): string {
  const configuration = returnImmediately ? { returnImmediately } : undefined;
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: TEXT }] }, configuration },
  });
}

async function post(api: Api, body: string, accept = 'application/json'): Promise<string> {
  const response = await fetch(`${api.baseUrl}/a2a`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, 'A2A-Version': '1.0', ...api.headers },
    body,
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"error":'))
    throw new Error(`HTTP ${response.status} ${text.slice(0, 500)}`);
  return text;
}

const SENDS: Send[] = [
  async (api) => {
    const answer = await post(api, request('SendMessage'));
    if (!answer.includes('"TASK_STATE_COMPLETED"'))
      throw new Error(`blocking send did not complete: ${answer.slice(0, 500)}`);
  },
  async (api) => {
    const stream = await post(api, request('SendStreamingMessage'), 'text/event-stream');
    if (!stream.includes('"TASK_STATE_COMPLETED"'))
      throw new Error(`stream ended before the task completed: ${stream.slice(-500)}`);
  },
  async (api) => {
    const answer = await post(api, request('SendMessage', true));
    if (!answer.includes('"task"')) throw new Error(`non-blocking send returned no task: ${answer.slice(0, 500)}`);
  },
];

/** Creates tasks `from` to `to` - 1 (the send kind rotates with the index). */
export async function createTasks(api: Api, from: number, to: number, concurrency: number): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < to; i = next++) await SENDS[i % SENDS.length](api);
    }),
  );
}
