/**
 * An external v0.3 agent that leaves `kind` out of its results, as a popular A2A server does: the
 * spec requires it, and the SDK's v0.3 client fails without it ("Unknown v0.3 stream event kind").
 * A gateway reads the kind from the result's shape instead, and logs the deviation once per agent.
 */
import { TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { artifactText, asTask, collect, sdkClient, userMessage } from '../support/sdk-client';
import { writeConfigFile } from '../support/config-file';
import { startTestApp, testConfig } from '../support/test-app';
import type { Json } from '../support/json';

/** The events of one turn as that server sends them: the task, its artifact, its end; none with a `kind`. */
function turn(params: Json): Json[] {
  const { contextId = 'ctx-1', parts } = params.message as Json;
  const ids = { taskId: 'remote-1', contextId };
  const text = (parts as Json[]).map((part) => part.text).join('');
  return [
    { id: ids.taskId, contextId, status: { state: 'submitted' }, history: [params.message] },
    { ...ids, artifact: { artifactId: 'a1', parts: [{ kind: 'text', text: `kindless: ${text}` }] }, lastChunk: true },
    { ...ids, status: { state: 'completed' }, final: true },
  ];
}

function kindlessAgent(): Promise<Server> {
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const url = `http://${request.headers.host}`;
    if (request.method === 'GET') {
      const card = {
        name: 'kindless',
        description: 'omits kind',
        url: `${url}/`,
        version: '1.0.0',
        protocolVersion: '0.3.0',
        preferredTransport: 'JSONRPC',
      };
      response.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ...card,
          capabilities: { streaming: true },
          defaultInputModes: ['text'],
          defaultOutputModes: ['text'],
          skills: [],
        }),
      );
      return;
    }
    let body = '';
    for await (const chunk of request) body += chunk;
    const call = JSON.parse(body) as Json;
    const events = turn(call.params);
    if (call.method === 'message/stream') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const result of events)
        response.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: call.id, result })}\n\n`);
      response.end();
      return;
    }
    const task = { ...events[0], status: events[2].status, artifacts: [events[1].artifact] };
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result: task }));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('a gateway to a v0.3 agent that leaves out kind', () => {
  let agent: Server;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    agent = await kindlessAgent();
    const agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}`;
    const config = writeConfigFile(
      [
        '[outbound]\nallow_hosts = ["127.0.0.1"]',
        `[[a2a.external_agents]]\nname = "kindless"\nurl = "${agentUrl}"\n`,
        '[[agents]]\nname = "gw"\n[agents.executor]\ntype = "a2a"\nagent = "kindless"\n',
      ].join('\n'),
    );
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: config })));
  });

  afterAll(async () => {
    await app?.close();
    agent?.close();
  });

  it('answers a blocking send with the remote answer', async () => {
    const task = asTask(await (await sdkClient(url, 'gw', 'JSONRPC')).sendMessage(userMessage('hello')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('kindless: hello');
  });

  it('streams the remote turn to its end', async () => {
    const events = await collect((await sdkClient(url, 'gw', 'JSONRPC')).sendMessageStream(userMessage('stream me')));
    const last = events.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
