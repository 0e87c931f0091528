/**
 * The gRPC load: blocking v1.0 `SendMessage` calls to `lf.a2a.v1.A2AService` (the request's `tenant`
 * names the agent, the API key goes in the `authorization` metadata), `connections` calls in flight
 * over one HTTP/2 channel per API, as a gRPC client multiplexes them. A plain grpc-js client with the
 * SDK's own message codecs: the SDK's client would add card discovery, interceptors and conversions
 * to every call, load-generator CPU that the JSON-RPC row's autocannon does not spend. Every answer
 * is decoded and checked, as one call is before the load: a completed task whose artifact echoes the text.
 */
import { Role, TaskState } from '@a2a-js/sdk';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { closedLoop, FailedCall, percentile } from './closed-loop';
import { type LoadOptions, type LoadResult, REQUEST_TIMEOUT_SECS, TEXT } from './load';
import type { RunningServer } from './servers';

const SEND = A2AService.sendMessage;
type SendRequest = Parameters<typeof SEND.requestSerialize>[0];
type SendResponse = ReturnType<typeof SEND.responseDeserialize>;

/** The agent the JSON-RPC load reaches at `/a2a`: the default one when no agent is configured. */
const AGENT = 'echo';

function sendRequest(): SendRequest {
  const part = { content: { $case: 'text' as const, value: TEXT }, metadata: undefined, filename: '', mediaType: '' };
  const message = {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [part],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: AGENT, message, configuration: undefined, metadata: undefined };
}

/** Why an answer is not a completed task echoing the text, or undefined when it is. */
function answerProblem(response: SendResponse): string | undefined {
  if (response.payload?.$case !== 'task') return `a ${response.payload?.$case ?? 'empty'} payload instead of a task`;
  const task = response.payload.value;
  if (task.status?.state !== TaskState.TASK_STATE_COMPLETED)
    return `a task in state ${TaskState[task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED]}`;
  const echoed = task.artifacts.some((artifact) =>
    artifact.parts.some((part) => part.content?.$case === 'text' && part.content.value === TEXT),
  );
  return echoed ? undefined : 'a task without the echoed text';
}

/** A status other than OK: the server's refusal, or (unavailable, past the deadline) no answer at all. */
function failedStatus(error: ServiceError): FailedCall {
  const unanswered = error.code === status.UNAVAILABLE || error.code === status.DEADLINE_EXCEEDED;
  return new FailedCall(unanswered ? 'transportErrors' : 'non2xx', `gRPC ${status[error.code]}: ${error.details}`);
}

/** One call, checked in full; resolves to its latency in ms, throws a FailedCall when it went wrong. */
function sendOnce(client: Client, metadata: Metadata): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + REQUEST_TIMEOUT_SECS * 1000;
    client.makeUnaryRequest(
      SEND.path,
      SEND.requestSerialize,
      SEND.responseDeserialize,
      sendRequest(),
      metadata,
      { deadline },
      (error, response) => {
        if (error) return reject(failedStatus(error));
        const problem = answerProblem(response!);
        if (problem)
          return reject(new FailedCall('badBodies', `OK with ${problem}: ${JSON.stringify(response).slice(0, 500)}`));
        resolve(performance.now() - started);
      },
    );
  });
}

/** A channel to each API's gRPC address, and the metadata every call carries (the server's headers: its key). */
function connect(server: RunningServer): { clients: Client[]; metadata: Metadata } {
  if (!server.grpcAddresses) throw new Error(`${server.name} does not serve A2A over gRPC`);
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(server.headers)) metadata.set(key, value);
  return {
    clients: server.grpcAddresses.map((address) => new Client(address, credentials.createInsecure())),
    metadata,
  };
}

export async function verifyGrpcAnswer(server: RunningServer): Promise<void> {
  const { clients, metadata } = connect(server);
  try {
    await sendOnce(clients[0], metadata);
  } catch (error) {
    throw new Error(`${server.name}: gRPC SendMessage answered ${(error as Error).message}`, { cause: error });
  } finally {
    clients.forEach((client) => client.close());
  }
}

export async function runGrpcLoad(
  server: RunningServer,
  { connections, durationSecs }: LoadOptions,
): Promise<LoadResult> {
  const { clients, metadata } = connect(server);
  const { timings, ...counts } = await closedLoop(connections, durationSecs, (caller) =>
    sendOnce(clients[caller % clients.length], metadata),
  );
  clients.forEach((client) => client.close());
  const latencies = timings.sort((a, b) => a - b);
  return { ...counts, p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99) };
}
