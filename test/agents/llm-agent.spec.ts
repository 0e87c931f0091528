/**
 * LLM agents through A2A: a scripted OpenAI-compatible server stands in for the model (the only
 * fake); everything else is the real service, its queue and its SDK clients.
 */
import { TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { startTestApp, testConfig } from '../support/test-app';
import { artifactText, asTask, collect, sdkClient, userMessage } from '../support/sdk-client';
import { ScriptedLlmServer } from './support/scripted-llm-server';

const API_KEY = 'sk-test-0123456789';

function agentsToml(baseUrl: string): string {
  return `
[outbound]
allow_hosts = ["127.0.0.1"]

[[agents]]
name = "assistant"
description = "An LLM agent"
tools = ["mcp_files_*", "web_fetch"]
[agents.executor]
type = "llm"
base_url = "${baseUrl}"
model = "test-model"
api_key_env = "TEST_LLM_KEY"
system_prompt = "You are terse."
max_iterations = 3

[[agents]]
name = "unguarded"
description = "An LLM agent whose provider the SSRF rules do not allow"
[agents.executor]
type = "llm"
base_url = "http://169.254.169.254/v1"
model = "test-model"
`;
}

describe('LLM agents (scripted OpenAI-compatible provider)', () => {
  let llm: ScriptedLlmServer;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    llm = await ScriptedLlmServer.start();
    ({ app, url } = await startTestApp(
      testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(agentsToml(llm.baseUrl)), TEST_LLM_KEY: API_KEY }),
    ));
  });

  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  const statusText = (task: { status?: { message?: { parts: { content?: { $case: string; value: unknown } }[] } } }) =>
    task.status?.message?.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');

  it('streams the model’s tokens as artifact chunks and completes with its answer', async () => {
    llm.play({ tokens: ['Hel', 'lo', ' there'] });
    const client = await sdkClient(url, 'assistant', 'JSONRPC');
    const events = await collect(client.sendMessageStream(userMessage('Say hello')));
    const chunks = events
      .filter((event) => event.payload?.$case === 'artifactUpdate')
      .map((event) => event.payload!.value as { lastChunk: boolean });
    expect(chunks.map((chunk) => chunk.lastChunk)).toEqual([false, false, true]);
    const taskId = (events[0].payload!.value as { id: string }).id;
    const task = await client.getTask({ id: taskId, tenant: '' });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('Hello there');
    // Once: clients that read the status message and the artifacts both would show it twice.
    expect(task.status?.message).toBeUndefined();

    const [request] = llm.requests;
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.body).toMatchObject({ model: 'test-model', stream: true });
    expect(request.body.messages).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say hello' },
    ]);
  });

  it('answers a tool call outside the agent’s allowlist with an error result, and goes on', async () => {
    llm.play(
      { toolCalls: [{ name: 'shell_exec', arguments: { command: 'id' } }] },
      { tokens: ['I cannot run commands.'] },
    );
    const client = await sdkClient(url, 'assistant', 'JSONRPC');
    const task = asTask(await client.sendMessage(userMessage('Run id')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(artifactText(task)).toBe('I cannot run commands.');
    const followUp = llm.requests[1].body.messages;
    expect(followUp.at(-2)).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: 'call_0', function: { name: 'shell_exec', arguments: '{"command":"id"}' } }],
    });
    expect(followUp.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_0',
      content: 'Error: Tool "shell_exec" is not available to this agent.',
    });
  });

  it('runs the built-in web_fetch on a page the model asks for, and answers from its text', async () => {
    const page = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Lisbon</h1><p>Sunny, 24 &#176;C</p>'),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/weather`;
      llm.play({ toolCalls: [{ name: 'web_fetch', arguments: { url: pageUrl } }] }, { tokens: ['Sunny in Lisbon.'] });
      const task = asTask(
        await (await sdkClient(url, 'assistant', 'JSONRPC')).sendMessage(userMessage('Weather in Lisbon?')),
      );
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactText(task)).toBe('Sunny in Lisbon.');
      expect(llm.requests[0].body.tools?.map((tool) => tool.function.name)).toEqual(['web_fetch']);
      expect(llm.requests[1].body.messages.at(-1)).toEqual({
        role: 'tool',
        tool_call_id: 'call_0',
        content: 'Lisbon\nSunny, 24 °C',
      });
    } finally {
      await new Promise((resolve) => page.close(resolve));
    }
  });

  it('fails the task with the provider’s error when the provider fails', async () => {
    llm.play({ status: 500, body: '{"error":{"message":"model overloaded"}}' });
    const task = asTask(await (await sdkClient(url, 'assistant', 'JSONRPC')).sendMessage(userMessage('Hi')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toBe(
      'Agent error: the model provider answered HTTP 500: {"error":{"message":"model overloaded"}}',
    );
  });

  it('fails the task when the model keeps calling tools past max_iterations', async () => {
    const call = (n: number) => ({ toolCalls: [{ name: 'mcp_files_read', arguments: { n } }] });
    llm.play(call(1), call(2), call(3));
    const task = asTask(await (await sdkClient(url, 'assistant', 'JSONRPC')).sendMessage(userMessage('Loop')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toMatch(/no final answer within 3 calls/);
  });

  it('refuses a provider URL the SSRF rules block, failing the task and naming why', async () => {
    const task = asTask(await (await sdkClient(url, 'unguarded', 'JSONRPC')).sendMessage(userMessage('Hi')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toMatch(/^Agent error: the model provider could not be reached: .*169\.254\.169\.254/);
  });

  it('stops streaming and ends canceled when the client cancels mid-answer', async () => {
    llm.play({ tokens: Array.from({ length: 50 }, (_, i) => `t${i} `), delayMs: 100 });
    const client = await sdkClient(url, 'assistant', 'JSONRPC');
    const stream = client.sendMessageStream(userMessage('Talk a lot'));
    const first = await stream.next();
    const taskId = (first.value!.payload!.value as { id: string }).id;
    await eventually(
      () => client.getTask({ id: taskId, tenant: '' }),
      (task) => task.artifacts.length > 0,
      5_000,
    );
    const canceled = await client.cancelTask({ id: taskId, tenant: '', metadata: {} });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(artifactText(canceled).split(' ').length).toBeLessThan(50);
    await collect(stream);
  });
});
