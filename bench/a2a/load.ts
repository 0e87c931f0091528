/**
 * The load: blocking v1.0 JSON-RPC `SendMessage` calls to `POST /a2a`, each with a fresh message id.
 * One checked call before the load proves the server answers correctly; during the load every
 * response body is checked too, so a fast stream of errors cannot pass for throughput.
 */
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import type { RunningServer } from './servers';

export const A2A_PATH = '/a2a';
export const TEXT = 'hello bench';
export const REQUEST_TIMEOUT_SECS = 10;

export interface LoadOptions {
  connections: number;
  durationSecs: number;
}

export interface LoadResult {
  reqPerSec: number;
  /** Latency to the whole answer: for a stream, to its end. */
  p50Ms: number;
  p99Ms: number;
  /** Streams only: latency to the first SSE event. */
  firstEvent?: { p50Ms: number; p99Ms: number };
  requests: number;
  /** HTTP status outside 2xx (over gRPC: a status other than OK, the server's refusal). */
  non2xx: number;
  /** 2xx (gRPC: OK) whose body is a JSON-RPC error or a task that did not complete. */
  badBodies: number;
  /** Connection errors and timeouts (autocannon counts a timeout as an error; gRPC's UNAVAILABLE and DEADLINE_EXCEEDED). */
  transportErrors: number;
  /** The first wrong response seen, for the report. */
  sample?: string;
}

export function errorCount(result: LoadResult): number {
  return result.non2xx + result.badBodies + result.transportErrors;
}

export function sendMessageBody(
  messageId: string,
  method: 'SendMessage' | 'SendStreamingMessage' = 'SendMessage',
): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: { message: { messageId, role: 'ROLE_USER', parts: [{ text: TEXT }] } },
  });
}

export function requestHeaders(server: RunningServer): Record<string, string> {
  return { 'content-type': 'application/json', 'A2A-Version': '1.0', ...server.headers };
}

interface TaskAnswer {
  result?: { task?: { status?: { state?: string }; artifacts?: { parts?: { text?: string }[] }[] } };
  error?: unknown;
}

/** One call, checked in full: HTTP 200, a JSON-RPC result, a completed task whose artifact echoes the text. */
export async function verifyAnswer(server: RunningServer): Promise<void> {
  const response = await fetch(`${server.baseUrl}${A2A_PATH}`, {
    method: 'POST',
    headers: requestHeaders(server),
    body: sendMessageBody(randomUUID()),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  const wrong = (why: string) =>
    new Error(`${server.name}: POST ${A2A_PATH} ${why}: HTTP ${response.status} ${text.slice(0, 1_000)}`);
  if (response.status !== 200) throw wrong('did not answer 200');
  let answer: TaskAnswer;
  try {
    answer = JSON.parse(text) as TaskAnswer;
  } catch {
    throw wrong('answered with something that is not JSON');
  }
  const task = answer.result?.task;
  if (!task) throw wrong('answered without a task result');
  if (task.status?.state !== 'TASK_STATE_COMPLETED') throw wrong(`answered a task in state ${task.status?.state}`);
  const echoed = task.artifacts?.some((artifact) => artifact.parts?.some((part) => part.text === TEXT));
  if (!echoed) throw wrong('answered a task without the echoed text');
}

/** Cheap enough for every response: a completed task and no JSON-RPC error member. */
function isCompletedTask(body: string): boolean {
  return body.includes('"TASK_STATE_COMPLETED"') && !body.includes('"error":');
}

export async function runLoad(server: RunningServer, { connections, durationSecs }: LoadOptions): Promise<LoadResult> {
  let badBodies = 0;
  let sample: string | undefined;
  const instance = autocannon({
    // autocannon spreads the connections round-robin over several URLs.
    url: server.replicaUrls ?? server.baseUrl,
    connections,
    duration: durationSecs,
    timeout: REQUEST_TIMEOUT_SECS,
    requests: [
      {
        method: 'POST',
        path: A2A_PATH,
        headers: requestHeaders(server),
        setupRequest: (request) => ({ ...request, body: sendMessageBody(randomUUID()) }),
      },
    ],
    verifyBody: isCompletedTask,
    // One request in flight per connection, so the last status seen belongs to the mismatched body.
    setupClient: (client) => {
      let status = 0;
      client.on('headers', (headers: { statusCode: number }) => (status = headers.statusCode));
      client.on('mismatch', (body: string) => {
        if (status >= 200 && status < 300) badBodies++;
        sample ??= `HTTP ${status} ${body.slice(0, 500)}`;
      });
    },
  });
  instance.on('reqError', (error: Error) => (sample ??= `request failed: ${error.message}`));
  const result = await instance;
  return {
    reqPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    badBodies,
    transportErrors: result.errors,
    sample,
  };
}
