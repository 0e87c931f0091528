import { type Message, SendMessageRequest, type StreamResponse, type Task } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';
import { TEST_API_KEY } from './test-app';

export type Binding = 'JSONRPC' | 'HTTP+JSON';

/** fetch that presents the API key, as a client of a protected server configures it. */
export function authenticatedFetch(key = TEST_API_KEY): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(input, { ...init, headers });
  };
}

/** The SDK's own client for one agent, discovered from its card, speaking `binding`. */
export function sdkClient(baseUrl: string, agent: string, binding: Binding, key?: string): Promise<Client> {
  const fetchImpl = authenticatedFetch(key);
  const factory = new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    preferredTransports: [binding],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  });
  return factory.createFromUrl(baseUrl, `/a2a/agents/${agent}/agent-card.json`);
}

export function userMessage(text: string, extra: Record<string, unknown> = {}): SendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra },
  });
}

export function asTask(result: Message | Task): Task {
  if (!('id' in result) || 'messageId' in result) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
  return result;
}

/** Collects a stream's events, optionally stopping (dropping the connection) after `limit` of them. */
export async function collect(stream: AsyncIterable<StreamResponse>, limit = Infinity): Promise<StreamResponse[]> {
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
    if (events.length >= limit) break;
  }
  return events;
}

export function kinds(events: StreamResponse[]): string[] {
  return events.map((event) => event.payload?.$case ?? 'none');
}

export function artifactText(task: Task): string {
  return task.artifacts
    .flatMap((artifact) => artifact.parts)
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join('');
}
