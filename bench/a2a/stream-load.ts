/**
 * The streaming load: v1.0 JSON-RPC `SendStreamingMessage` calls to `POST /a2a`, one at a time on
 * each of `connections` keep-alive connections (an undici Client each: autocannon cannot time a
 * response's first bytes), timing each stream's first SSE event and its end. Every stream is checked
 * in full: it starts with the task of the message sent, carries the echoed text and ends with a
 * completed status, so that a fast stream of errors cannot pass for throughput.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { closedLoop, FailedCall, percentile } from './closed-loop';
import {
  A2A_PATH,
  type LoadOptions,
  type LoadResult,
  REQUEST_TIMEOUT_SECS,
  requestHeaders,
  sendMessageBody,
  TEXT,
} from './load';
import type { RunningServer } from './servers';

interface StreamTiming {
  firstEventMs: number;
  endMs: number;
}

/** A stream that answered, but wrongly: a bad body under HTTP 200, else an error status. */
function wrongStream(status: number, message: string): FailedCall {
  return new FailedCall(status === 200 ? 'badBodies' : 'non2xx', `HTTP ${status} ${message}`);
}

interface StreamEvent {
  result?: {
    task?: { history?: { messageId?: string }[] };
    artifactUpdate?: { artifact?: { parts?: { text?: string }[] } };
    statusUpdate?: { status?: { state?: string } };
  };
  error?: unknown;
}

/** The JSON of an SSE event block: its `data:` lines joined; undefined for a comment or keep-alive. */
function eventData(block: string): string | undefined {
  const lines = block.split(/\r?\n/).filter((line) => line.startsWith('data:'));
  return lines.length > 0 ? lines.map((line) => line.slice('data:'.length).trimStart()).join('\n') : undefined;
}

/** Why a stream's events are not those of a turn on `messageId` that completed, or undefined when they are. */
function streamProblem(events: StreamEvent[], messageId: string): string | undefined {
  if (events.length === 0) return 'no event';
  if (events.some((event) => event.error !== undefined || !event.result)) return 'a JSON-RPC error';
  if (!events[0].result!.task?.history?.some((message) => message.messageId === messageId))
    return 'a first event that is not the task of the message sent';
  const echoed = events.some((event) =>
    event.result!.artifactUpdate?.artifact?.parts?.some((part) => part.text === TEXT),
  );
  if (!echoed) return 'no artifact with the echoed text';
  if (events.at(-1)!.result!.statusUpdate?.status?.state !== 'TASK_STATE_COMPLETED')
    return 'a last event that is not a completed status';
  return undefined;
}

/** One stream, read to its end and checked; throws a FailedCall when it answered wrongly. */
async function streamOnce(client: Client, server: RunningServer): Promise<StreamTiming> {
  const messageId = randomUUID();
  const started = performance.now();
  const { statusCode, body } = await client.request({
    path: A2A_PATH,
    method: 'POST',
    headers: { ...requestHeaders(server), accept: 'text/event-stream' },
    body: sendMessageBody(messageId, 'SendStreamingMessage'),
  });
  if (statusCode !== 200) throw wrongStream(statusCode, (await body.text()).slice(0, 500));
  let firstEventMs: number | undefined;
  let tail = '';
  const data: string[] = [];
  body.setEncoding('utf8');
  for await (const chunk of body as AsyncIterable<string>) {
    const blocks = (tail + chunk).split(/\r?\n\r?\n/);
    tail = blocks.pop()!;
    for (const block of blocks) {
      const json = eventData(block);
      if (json === undefined) continue;
      firstEventMs ??= performance.now() - started;
      data.push(json);
    }
  }
  const endMs = performance.now() - started;
  let events: StreamEvent[];
  try {
    events = data.map((json) => JSON.parse(json) as StreamEvent);
  } catch {
    throw wrongStream(statusCode, `an event that is not JSON: ${data.join('\n').slice(0, 500)}`);
  }
  const problem = streamProblem(events, messageId);
  if (problem) throw wrongStream(statusCode, `${problem}: ${data.join('\n').slice(0, 1_000)}`);
  return { firstEventMs: firstEventMs!, endMs };
}

function connect(url: string): Client {
  const timeoutMs = REQUEST_TIMEOUT_SECS * 1000;
  return new Client(url, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
}

/** One stream checked in full before the load. */
export async function verifyStreamAnswer(server: RunningServer): Promise<void> {
  const client = connect(server.baseUrl);
  try {
    await streamOnce(client, server);
  } catch (error) {
    throw new Error(`${server.name}: SendStreamingMessage answered ${(error as Error).message}`, { cause: error });
  } finally {
    await client.close();
  }
}

export async function runStreamLoad(
  server: RunningServer,
  { connections, durationSecs }: LoadOptions,
): Promise<LoadResult> {
  const urls = server.replicaUrls ?? [server.baseUrl];
  const clients = Array.from({ length: connections }, (_, index) => connect(urls[index % urls.length]));
  const { timings, ...counts } = await closedLoop(connections, durationSecs, (caller) =>
    streamOnce(clients[caller], server),
  );
  await Promise.all(clients.map((client) => client.close()));
  const firstEvents = timings.map((t) => t.firstEventMs).sort((a, b) => a - b);
  const ends = timings.map((t) => t.endMs).sort((a, b) => a - b);
  return {
    ...counts,
    p50Ms: percentile(ends, 0.5),
    p99Ms: percentile(ends, 0.99),
    firstEvent: { p50Ms: percentile(firstEvents, 0.5), p99Ms: percentile(firstEvents, 0.99) },
  };
}
