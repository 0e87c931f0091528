import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type ApplicationInputRequest,
  type TaskEnabledSession,
  type ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client';
import { bearer } from '../../support/test-app';
import { fetchRawDispatch } from './fetch-raw-dispatch';
import { sameRealmFetch } from './same-realm-fetch';

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'ext-tasks-test', version: '1.0.0' };

export type Era = 'legacy' | 'modern';

export interface ExtTaskSessionOptions {
  /** Answers the questions of tasks waiting for input (2025-11-25: pushed on the session's GET stream; 2026-07-28: read from `tasks/get`). */
  answer?: (question: string) => string;
  key?: string;
}

/**
 * ext-tasks sessions over 2.x Clients of either era against one Switchboard's `/mcp`, 2026-07-28's
 * task traffic over `fetchRawDispatch`; `closeAll()` closes every session and its client.
 */
export class ExtTaskSessions {
  private readonly opened: { session: TaskEnabledSession; client: Client }[] = [];

  async open(
    baseUrl: string,
    era: Era,
    { answer = (question) => `no answer to ${question}`, key }: ExtTaskSessionOptions = {},
  ): Promise<TaskEnabledSession> {
    const versionNegotiation = era === 'modern' ? { mode: { pin: MODERN } } : { mode: 'legacy' as const };
    const client = new Client(CLIENT_INFO, { capabilities: { elicitation: {} }, versionNegotiation });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
        requestInit: { headers: bearer(key) },
        fetch: sameRealmFetch,
      }),
    );
    // The handler's result type follows the request's kind; Switchboard only asks elicitations.
    const onInputRequest = async (request: ApplicationInputRequest) =>
      ({ action: 'accept', content: { answer: answer(String(request.params?.message)) } }) as never;
    const endpointId = `switchboard-${era}`;
    const session =
      era === 'modern'
        ? createTaskSessionFromClient(client, {
            endpointId,
            onInputRequest,
            rawDispatch: fetchRawDispatch(baseUrl, key),
            v2RequestFraming: {
              protocolVersion: MODERN,
              clientInfo: CLIENT_INFO,
              clientCapabilities: { elicitation: {} },
            },
          })
        : createTaskSessionFromClient(client, { endpointId, onInputRequest });
    this.opened.push({ session, client });
    return session;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.opened.map(({ session }) => session.close()));
    await Promise.all(this.opened.map(({ client }) => client.close()));
  }
}

/** Calls agent `agent` as a task (2025-11-25 only makes one when asked: `require`). */
export async function callAsTask(
  session: TaskEnabledSession,
  agent: string,
  message: string,
): Promise<ToolExecution<object> & { kind: 'task' }> {
  const execution = await session.callTool<object>(
    `switchboard_agent_${agent}`,
    { message },
    { task: { preference: 'require' } },
  );
  expect(execution.kind).toBe('task');
  return execution as ToolExecution<object> & { kind: 'task' };
}
