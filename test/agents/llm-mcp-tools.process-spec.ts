/**
 * An LLM agent calling a real MCP server's tool: the scripted model picks `mcp_everything_echo`,
 * Switchboard runs it on server-everything (stdio) through the tool pipeline, and the model's
 * answer uses the result. The agent is reached over A2A, and as an MCP tool itself: over `/mcp`
 * and over `switchboard mcp` (stdio, relaying to this service).
 */
import { TaskState } from '@a2a-js/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { TEST_API_KEY } from '../support/test-app';
import { connectV1, textOf } from '../mcp-server/support/mcp-clients';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { startLlmMcpApp } from './support/llm-mcp-app';
import { ScriptedLlmServer } from './support/scripted-llm-server';

describe('an LLM agent using an MCP tool, through A2A', () => {
  let llm: ScriptedLlmServer;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    llm = await ScriptedLlmServer.start();
    ({ app, url } = await startLlmMcpApp(llm.baseUrl, ['mcp_everything_echo'], 'test-model'));
  });

  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  const toolThenAnswer = () =>
    llm.play(
      { toolCalls: [{ name: 'mcp_everything_echo', arguments: { message: 'from the model' } }] },
      { tokens: ['The tool said it.'] },
    );

  /** The model saw the MCP tool's real result before it answered. */
  const expectToolResultReachedModel = () =>
    expect(llm.requests[1].body.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_0',
      content: 'Echo: from the model',
    });

  it('offers only the allowed MCP tools, runs the one the model picks, and answers with its result', async () => {
    toolThenAnswer();
    const task = asTask(
      await (await sdkClient(url, 'assistant', 'JSONRPC')).sendMessage(userMessage('Use the echo tool')),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    expect(llm.requests[0].body.tools?.map((tool) => tool.function.name)).toEqual(['mcp_everything_echo']);
    expectToolResultReachedModel();
  });

  it('is itself a tool over /mcp, for the SDK client', async () => {
    toolThenAnswer();
    const { client } = await connectV1(url);
    try {
      const result = await client.callTool({
        name: 'switchboard_agent_assistant',
        arguments: { message: 'Use the echo tool' },
      });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('The tool said it.');
      expectToolResultReachedModel();
    } finally {
      await client.close();
    }
  });

  it('is itself a tool over `switchboard mcp` (stdio), relayed to this service', async () => {
    toolThenAnswer();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [resolve(__dirname, '../../bin/switchboard.js'), 'mcp'],
      cwd: mkdtempSync(join(tmpdir(), 'switchboard-mcp-')),
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', SWITCHBOARD_URL: url, SWITCHBOARD_API_KEY: TEST_API_KEY },
      stderr: 'ignore',
    });
    const client = new Client({ name: 'llm-agent-over-stdio', version: '1.0.0' });
    await client.connect(transport);
    try {
      const result = await client.callTool({
        name: 'switchboard_agent_assistant',
        arguments: { message: 'Use the echo tool' },
      });
      expect(textOf(result)).toBe('The tool said it.');
      expectToolResultReachedModel();
    } finally {
      await client.close();
    }
  });
});
