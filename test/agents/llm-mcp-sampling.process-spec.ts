/**
 * An upstream MCP server asking for sampling during an LLM agent's tool call: the agent's own model
 * answers (server-everything's `trigger-sampling-request`, stdio), and elicitation is refused.
 */
import { TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { startLlmMcpApp } from './support/llm-mcp-app';
import { ScriptedLlmServer } from './support/scripted-llm-server';

const SAMPLING_TOOL = 'mcp_everything_trigger_sampling_request';
const ELICITATION_TOOL = 'mcp_everything_trigger_elicitation_request';

describe("an upstream server's requests during an LLM agent's tool call", () => {
  let llm: ScriptedLlmServer;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    llm = await ScriptedLlmServer.start();
    ({ app, url } = await startLlmMcpApp(llm.baseUrl, [SAMPLING_TOOL, ELICITATION_TOOL], 'agent-model'));
  });

  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  it("answers sampling with the agent's own model", async () => {
    llm.play(
      { toolCalls: [{ name: SAMPLING_TOOL, arguments: { prompt: 'say hi' } }] },
      { tokens: ['hi from ', 'the agent model'] },
      { tokens: ['Done.'] },
    );
    const task = asTask(
      await (await sdkClient(url, 'assistant', 'JSONRPC')).sendMessage(userMessage('Use the sampling tool')),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    // The second model call is the server's sampling request: its system prompt and message, no tools.
    expect(llm.requests[1].body.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: say hi' },
    ]);
    expect(llm.requests[1].body.tools).toBeUndefined();
    const toolResult = llm.requests[2].body.messages.at(-1) as { role: string; content: string };
    expect(toolResult.role).toBe('tool');
    expect(toolResult.content).toContain('hi from the agent model');
    expect(toolResult.content).toContain('agent-model');
  });

  it('refuses elicitation, which no user is there to answer, with an error the model reads', async () => {
    llm.play({ toolCalls: [{ name: ELICITATION_TOOL, arguments: {} }] }, { tokens: ['Could not ask.'] });
    const task = asTask(
      await (await sdkClient(url, 'assistant', 'JSONRPC')).sendMessage(userMessage('Use the elicitation tool')),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const toolResult = llm.requests[1].body.messages.at(-1) as { content: string };
    expect(toolResult.content).toMatch(
      /^Error: .*Agent "assistant" \(through Switchboard\) cannot answer elicitation\/create/,
    );
  });
});
