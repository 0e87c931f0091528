/**
 * An LLM agent calling a real MCP server's tool: the scripted model picks `mcp_everything_echo`,
 * Switchboard runs it on server-everything (stdio) through the tool pipeline, and the model's
 * answer uses the result.
 */
import { TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MCP_TOOL_SOURCE, McpToolSource } from '../../src/mcp-client/mcp-tool-source.interface';
import { writeConfigFile } from '../support/config-file';
import { startTestApp, testConfig } from '../support/test-app';
import { asTask, sdkClient, userMessage } from '../a2a/support/sdk-client';
import { stdioServer, toolsListed } from '../mcp-client/support/mcp-app';
import { EVERYTHING_SERVER } from '../mcp-client/support/mcp-servers';
import { ScriptedLlmServer } from './support/scripted-llm-server';

describe('an LLM agent using an MCP tool, through A2A', () => {
  let llm: ScriptedLlmServer;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    llm = await ScriptedLlmServer.start();
    const toml = `
[outbound]
allow_hosts = ["127.0.0.1"]

[[agents]]
name = "assistant"
tools = ["mcp_everything_echo"]
[agents.executor]
type = "llm"
base_url = "${llm.baseUrl}"
model = "test-model"
${stdioServer('everything', EVERYTHING_SERVER, ['stdio'])}`;
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(toml) })));
    await toolsListed(app.get<McpToolSource>(MCP_TOOL_SOURCE), ['mcp_everything_echo']);
  });

  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it('offers only the allowed MCP tools, runs the one the model picks, and answers with its result', async () => {
    llm.play({ toolCalls: [{ name: 'mcp_everything_echo', arguments: { message: 'from the model' } }] }, { tokens: ['The tool said it.'] });
    const task = asTask(await (await sdkClient(url, 'assistant', 'JSONRPC')).sendMessage(userMessage('Use the echo tool')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const [first, second] = llm.requests;
    expect(first.body.tools?.map((tool) => tool.function.name)).toEqual(['mcp_everything_echo']);
    expect(second.body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_0', content: 'Echo: from the model' });
  });
});
