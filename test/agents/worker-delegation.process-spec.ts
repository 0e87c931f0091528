/**
 * A worker process boots the agent runtime, the stores and the queue, and no HTTP face: no A2A or
 * MCP server, no controllers, no per-agent transports. Its agents still delegate: a2a_send runs the
 * delegated task through the A2A handlers alone, on real Postgres, Redis and BullMQ, with the API
 * running no turns itself.
 */
import { TaskState } from '@a2a-js/sdk';
import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { A2aEndpoints } from '../../src/a2a-server/a2a-endpoints.service';
import { A2aServerModule } from '../../src/a2a-server/a2a-server.module';
import { ExternalAgents } from '../../src/a2a-client/external-agents.service';
import { createWorkerApp } from '../../src/app.factory';
import { McpServerModule } from '../../src/mcp-server/mcp-server.module';
import { killAllPeers, type PeerAgent, startPeer } from '../a2a-client/support/peer-process';
import { type DurableTestApp, startDurableTestApp } from '../support/durable-test-app';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { ScriptedLlmServer } from './support/scripted-llm-server';

describe('a worker process', () => {
  let llm: ScriptedLlmServer;
  let peer: PeerAgent;
  let service: DurableTestApp;
  let worker: INestApplicationContext;

  beforeAll(async () => {
    [llm, peer] = await Promise.all([ScriptedLlmServer.start(), startPeer({ mode: 'v1' })]);
    const toml = `
[outbound]
allow_hosts = ["127.0.0.1"]

[[agents]]
name = "assistant"
tools = ["a2a_send"]
delegates = ["peer"]
[agents.executor]
type = "llm"
base_url = "${llm.baseUrl}"
model = "test-model"

[[a2a.external_agents]]
name = "peer"
url = "${peer.url}"
`;
    service = await startDurableTestApp({
      SWITCHBOARD_CONFIG: writeConfigFile(toml),
      SWITCHBOARD_WORKER_IN_API: 'false',
    });
    worker = await createWorkerApp(service.config);
    await worker.init();
    const externalAgents = worker.get(ExternalAgents);
    await eventually(
      async () => externalAgents.get('peer').status().state,
      (state) => state === 'ready',
    );
  });

  afterAll(async () => {
    await worker?.close();
    await service?.close();
    await llm?.close();
    await killAllPeers();
  });

  it('boots no HTTP face: no A2A or MCP server module, no controllers, no A2A transports', () => {
    const modules = [...worker.get(ModulesContainer).values()];
    expect(modules.filter((module) => module.controllers.size > 0).map((module) => module.name)).toEqual([]);
    expect(() => worker.get(A2aServerModule)).toThrow();
    expect(() => worker.get(McpServerModule)).toThrow();
    expect(() => worker.get(A2aEndpoints, { strict: false })).toThrow();
  });

  it("runs an agent's a2a_send through the A2A handlers, the delegated task on the queue too", async () => {
    llm.play(
      { toolCalls: [{ name: 'a2a_send', arguments: { agent: 'peer', message: 'echo hello from the worker' } }] },
      { tokens: ['Done.'] },
    );
    const assistant = await sdkClient(service.url, 'assistant', 'JSONRPC');
    const task = asTask(await assistant.sendMessage(userMessage('Delegate this')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [result] = llm.requests[1].body.messages
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.parse(message.content ?? '') as unknown);
    expect(result).toEqual({
      state: 'completed',
      taskId: expect.any(String),
      contextId: expect.any(String),
      answer: 'hello from the worker',
    });
  });
});
