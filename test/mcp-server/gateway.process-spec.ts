/**
 * `/mcp` as a gateway: server-everything (stdio) behind Switchboard, driven by the official SDK
 * clients of both eras. An MCP client should lose nothing by going through Switchboard.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { bearer } from '../support/test-app';
import { modernHeaders, modernMeta, rawMcp, rpc } from './support/raw-mcp';
import { startMcpApp, stdioServer, toolsListed, type McpTestApp } from '../mcp-client/support/mcp-app';
import { EVERYTHING_SERVER } from '../mcp-client/support/mcp-servers';
import { connectV1, connectV2, textOf } from './support/mcp-clients';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { ExtTaskSessions, type Era } from './support/ext-task-sessions';

const MAX_RESULT_CHARS = 300;
let target: McpTestApp;

beforeAll(async () => {
  target = await startMcpApp(
    stdioServer('everything', EVERYTHING_SERVER, ['stdio'], 'timeout_secs = 30') +
      `\n[tools]\ntimeout_secs = 2\nmax_result_chars = ${MAX_RESULT_CHARS}\n`,
  );
  await toolsListed(target.tools, ['mcp_everything_echo']);
});

const taskSessions = new ExtTaskSessions();

afterAll(async () => {
  await taskSessions.closeAll();
  await target?.app.close();
});

describe('re-exposed upstream tools', () => {
  it.each<Era>(['legacy', 'modern'])(
    'run as durable tasks when asked (%s era): the task handle, then the upstream result, checked against its output schema',
    async (era) => {
      const session = await taskSessions.open(target.url, era);
      const execution = await session.callTool<object>(
        'mcp_everything_get_structured_content',
        { location: 'Chicago' },
        { task: { preference: 'require' } },
      );
      expect(execution.kind).toBe('task');
      const { outcome } = await (execution as typeof execution & { kind: 'task' }).settle();
      expect(resultFromTaskOutcome(outcome)).toMatchObject({
        structuredContent: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
      });
    },
  );

  it.each([
    ['1.x', connectV1Client],
    ['2.x', connectV2],
  ])(
    'keep title, annotations and outputSchema, and results keep structuredContent (%s client)',
    async (_era, connect) => {
      const client = await connect(target.url);
      const { tools } = await client.listTools();
      const tool = tools.find((candidate) => candidate.name === 'mcp_everything_get_structured_content');
      expect(tool).toMatchObject({
        title: 'Get Structured Content Tool',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        outputSchema: {
          type: 'object',
          properties: { temperature: { type: 'number' }, conditions: { type: 'string' }, humidity: { type: 'number' } },
        },
      });
      const result = await client.callTool({
        name: 'mcp_everything_get_structured_content',
        arguments: { location: 'Chicago' },
      });
      expect(result.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
      await client.close();
    },
  );
});

describe('tools.max_result_chars and tools.timeout_secs', () => {
  it('cut an upstream tool result called through /mcp', async () => {
    const client = await connectV1Client(target.url);
    const message = 'x'.repeat(MAX_RESULT_CHARS * 2);
    const result = await client.callTool({ name: 'mcp_everything_echo', arguments: { message } });
    expect(textOf(result)).toBe(
      `${`Echo: ${message}`.slice(0, MAX_RESULT_CHARS)}\n[truncated: ${MAX_RESULT_CHARS} of ${message.length + 6} characters shown]`,
    );
    await client.close();
  });

  it('end an upstream tool call through /mcp that outlasts the timeout, as an error result', async () => {
    const client = await connectV2(target.url);
    const started = Date.now();
    const result = await client.callTool({
      name: 'mcp_everything_trigger_long_running_operation',
      arguments: { duration: 20, steps: 2 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Tool "mcp_everything_trigger_long_running_operation" did not answer within 2000 ms.');
    expect(Date.now() - started).toBeLessThan(10_000);
    await client.close();
  });
});

describe('upstream notifications', () => {
  const longRun = { name: 'mcp_everything_trigger_long_running_operation', arguments: { duration: 0.3, steps: 3 } };
  const everyStep = [1, 2, 3].map((progress) => ({ progress, total: 3 }));

  it("pass the upstream's progress on under the caller's progress token (1.x client)", async () => {
    const client = await connectV1Client(target.url);
    const progress: object[] = [];
    await client.callTool(longRun, undefined, {
      onprogress: ({ progress: done, total }) => progress.push({ progress: done, total }),
    });
    expect(progress).toEqual(everyStep);
    await client.close();
  });

  it("pass the upstream's progress on under the caller's progress token (2.x client)", async () => {
    const client = await connectV2(target.url);
    const progress: object[] = [];
    await client.callTool(longRun, {
      onprogress: ({ progress: done, total }) => progress.push({ progress: done, total }),
    });
    expect(progress).toEqual(everyStep);
    await client.close();
  });

  it("pass the upstream's log messages on to the calling session, which is told logging is offered", async () => {
    const client = await connectV1Client(target.url);
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const logged = new Promise<{ level: string; data: unknown }>((resolve) =>
      client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => resolve(params)),
    );
    // server-everything logs once at once, then every 5 s until toggled off.
    await client.callTool({ name: 'mcp_everything_toggle_simulated_logging', arguments: {} });
    await client.callTool({ name: 'mcp_everything_toggle_simulated_logging', arguments: {} });
    expect(await logged).toMatchObject({ level: expect.any(String), data: expect.stringMatching(/message/) });
    await client.close();
  });

  it('offers no logging capability when no connected server sends log messages', async () => {
    const bare = await startMcpApp('');
    const client = await connectV1Client(bare.url);
    expect(client.getServerCapabilities()?.logging).toBeUndefined();
    await client.close();
    await bare.app.close();
  });
});

describe('upstream resources, resource templates, prompts and completions', () => {
  const TEXT_TEMPLATE = 'mcp://everything/demo://resource/dynamic/text/{resourceId}';

  it.each([
    ['1.x', connectV1Client],
    ['2.x', connectV2],
  ])(
    'lists and reads upstream resources as mcp://{server}/{uri}, beside Switchboard’s own (%s client)',
    async (_era, connect) => {
      const client = await connect(target.url);
      const { resources } = await client.listResources();
      const document = resources.find((resource) =>
        resource.uri.startsWith('mcp://everything/demo://resource/static/document/'),
      );
      expect(document).toMatchObject({ name: expect.any(String), mimeType: expect.any(String) });
      const read = await client.readResource({ uri: document!.uri });
      expect(read.contents).toEqual([expect.objectContaining({ uri: document!.uri, text: expect.any(String) })]);

      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(
        expect.arrayContaining([TEXT_TEMPLATE, 'a2a://task/{taskId}']),
      );
      expect(resourceTemplates.find((template) => template.uriTemplate === TEXT_TEMPLATE)).toMatchObject({
        name: expect.stringMatching(/^mcp_everything_dynamic_text_resource/),
        mimeType: 'text/plain',
      });
      const dynamic = await client.readResource({ uri: 'mcp://everything/demo://resource/dynamic/text/7' });
      expect(dynamic.contents).toEqual([
        expect.objectContaining({
          uri: 'mcp://everything/demo://resource/dynamic/text/7',
          text: expect.stringContaining('7'),
        }),
      ]);

      await expect(client.readResource({ uri: 'mcp://nowhere/demo://x' })).rejects.toMatchObject({ code: -32602 });
      await client.close();
    },
  );

  it.each([
    ['1.x', connectV1Client],
    ['2.x', connectV2],
  ])(
    'lists and gets upstream prompts as mcp_{server}_{prompt}, and completes their arguments and template variables (%s client)',
    async (_era, connect) => {
      const client = await connect(target.url);
      expect(client.getServerCapabilities()).toMatchObject({
        prompts: expect.any(Object),
        completions: expect.any(Object),
      });
      const { prompts } = await client.listPrompts();
      expect(prompts.find((prompt) => prompt.name === 'mcp_everything_args_prompt')).toMatchObject({
        arguments: expect.arrayContaining([expect.objectContaining({ name: 'city', required: true })]),
      });
      const prompt = await client.getPrompt({ name: 'mcp_everything_args_prompt', arguments: { city: 'Lisbon' } });
      expect(JSON.stringify(prompt.messages)).toContain('Lisbon');

      const department = await client.complete({
        ref: { type: 'ref/prompt', name: 'mcp_everything_completable_prompt' },
        argument: { name: 'department', value: 'S' },
      });
      expect(department.completion.values).toEqual(['Sales', 'Support']);
      const member = await client.complete({
        ref: { type: 'ref/prompt', name: 'mcp_everything_completable_prompt' },
        argument: { name: 'name', value: '' },
        context: { arguments: { department: 'Sales' } },
      });
      expect(member.completion.values).toEqual(['David', 'Eve', 'Frank']);
      const resourceId = await client.complete({
        ref: { type: 'ref/resource', uri: TEXT_TEMPLATE },
        argument: { name: 'resourceId', value: '3' },
      });
      expect(resourceId.completion.values).toEqual(['3']);

      await expect(client.getPrompt({ name: 'mcp_nowhere_prompt' })).rejects.toMatchObject({ code: -32602 });
      // Same input, same error: completing an argument of a prompt no server offers (it was -32603).
      await expect(
        client.complete({
          ref: { type: 'ref/prompt', name: 'mcp_nowhere_prompt' },
          argument: { name: 'x', value: '' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
      await client.close();
    },
  );

  it("subscribes a 2025-era session to an upstream resource and passes the upstream's updates on", async () => {
    const client = await connectV1Client(target.url);
    const { resources } = await client.listResources();
    const uri = resources.find((resource) => resource.uri.startsWith('mcp://everything/'))!.uri;
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, ({ params }) => resolve(params.uri)),
    );
    await client.subscribeResource({ uri });
    // server-everything announces a change of every subscribed resource at once, then every 5 s until toggled off.
    await client.callTool({ name: 'mcp_everything_toggle_subscriber_updates', arguments: {} });
    await client.callTool({ name: 'mcp_everything_toggle_subscriber_updates', arguments: {} });
    expect(await updated).toBe(uri);
    await client.unsubscribeResource({ uri });
    await expect(client.subscribeResource({ uri: 'mcp://nowhere/demo://x' })).rejects.toThrow(
      /mcp:\/\/\{server\}\/\{uri\}/,
    );
    await client.close();
  });

  it("hears of an upstream resource's updates in a 2026-07-28 listen that names it", async () => {
    const client = new ClientV2(
      { name: 'gateway-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new TransportV2(new URL('/mcp', target.url), { requestInit: { headers: bearer() } }));
    const { resources } = await client.listResources();
    const uri = resources.find((resource) => resource.uri.startsWith('mcp://everything/'))!.uri;
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler('notifications/resources/updated', ({ params }) => resolve(params.uri)),
    );
    const listening = await client.listen({ resourceSubscriptions: [uri] });
    expect(listening.honoredFilter.resourceSubscriptions).toEqual([uri]);
    await client.callTool({ name: 'mcp_everything_toggle_subscriber_updates', arguments: {} });
    await client.callTool({ name: 'mcp_everything_toggle_subscriber_updates', arguments: {} });
    expect(await updated).toBe(uri);
    await listening.close();
    await client.close();
  });

  it('namespaces the resource links of a tool result, so they read through /mcp', async () => {
    const client = await connectV1Client(target.url);
    const result = await client.callTool({ name: 'mcp_everything_get_resource_links', arguments: { count: 1 } });
    const link = (result.content as { type: string; uri?: string }[]).find((block) => block.type === 'resource_link');
    expect(link?.uri).toMatch(/^mcp:\/\/everything\/demo:\/\//);
    expect((await client.readResource({ uri: link!.uri! })).contents).toHaveLength(1);
    await client.close();
  });
});

describe("upstream servers' sampling and elicitation", () => {
  /** The caller's side: answers sampling with `text`, declines elicitation, and records what it was asked. */
  const callerAnswers = (text: string) => {
    const asked: string[] = [];
    return {
      asked,
      sample: (request: { method: string }) => {
        asked.push(request.method);
        return { model: 'test-model', role: 'assistant' as const, content: { type: 'text' as const, text } };
      },
      elicit: (request: { method: string }) => {
        asked.push(request.method);
        return { action: 'decline' as const };
      },
    };
  };

  /** Both tools called by `client`: each upstream request reached it, and its answer reached the upstream tool. */
  const expectRelayed = async (client: ToolCaller, text: string, asked: string[]) => {
    const sampled = await client.callTool({
      name: 'mcp_everything_trigger_sampling_request',
      arguments: { prompt: 'hello' },
    });
    expect(sampled).not.toHaveProperty('isError', true);
    expect(textOf(sampled)).toContain(text);
    const elicited = await client.callTool({ name: 'mcp_everything_trigger_elicitation_request', arguments: {} });
    expect(textOf(elicited)).toContain('declined');
    expect(asked).toEqual(['sampling/createMessage', 'elicitation/create']);
  };

  it('are relayed to a 2025-era caller that declared them, and its answers back', async () => {
    const client = new ClientV1(
      { name: 'gateway-test', version: '1.0.0' },
      { capabilities: { sampling: {}, elicitation: {} } },
    );
    const answers = callerAnswers('sampled by the caller');
    client.setRequestHandler(CreateMessageRequestSchema, answers.sample);
    client.setRequestHandler(ElicitRequestSchema, answers.elicit);
    await client.connect(new TransportV1(new URL('/mcp', target.url), { requestInit: { headers: bearer() } }));
    await expectRelayed(client, 'sampled by the caller', answers.asked);
    await client.close();
  });

  /** A 2.x client that declares both and answers as `callerAnswers(text)` does. */
  const answeringV2Client = async (text: string) => {
    const client = new ClientV2(
      { name: 'gateway-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: { sampling: {}, elicitation: {} } },
    );
    const answers = callerAnswers(text);
    client.setRequestHandler('sampling/createMessage', answers.sample);
    client.setRequestHandler('elicitation/create', answers.elicit);
    await client.connect(new TransportV2(new URL('/mcp', target.url), { requestInit: { headers: bearer() } }));
    return { client, asked: answers.asked };
  };

  it('are relayed to a 2026-07-28 caller as input_required rounds, and its answers back to the upstream call', async () => {
    const { client, asked } = await answeringV2Client('sampled by the 2026 caller');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await expectRelayed(client, 'sampled by the 2026 caller', asked);
    await client.close();
  });

  it('refuse a 2026-07-28 retry whose requestState names no call waiting for input', async () => {
    const name = 'mcp_everything_trigger_sampling_request';
    const params = {
      name,
      arguments: { prompt: 'hello' },
      requestState: 'made-up',
      inputResponses: {},
      _meta: modernMeta(),
    };
    const answer = await rawMcp(target.url, 'POST', rpc('tools/call', params), modernHeaders('tools/call', name));
    expect(answer.message?.result).toMatchObject({ isError: true });
    expect(textOf(answer.message!.result as object)).toMatch(/requestState names no tool call waiting for input/);
  });

  it('fail with a clear error for a 2025-era caller that cannot answer them', async () => {
    const client = await connectV1Client(target.url);
    const result = await client.callTool({
      name: 'mcp_everything_trigger_sampling_request',
      arguments: { prompt: 'hello' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/does not support sampling/);
    await client.close();
  });

  it('answer a 2026-07-28 caller that did not declare them with -32021 naming what it lacks (HTTP 400), and stop the upstream call', async () => {
    const undeclared = await connectV2(target.url);
    await expect(
      undeclared.callTool({ name: 'mcp_everything_trigger_sampling_request', arguments: { prompt: 'hello' } }),
    ).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    await expect(
      undeclared.callTool({ name: 'mcp_everything_trigger_elicitation_request', arguments: {} }),
    ).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    await undeclared.close();
    const name = 'mcp_everything_trigger_sampling_request';
    const raw = await rawMcp(
      target.url,
      'POST',
      rpc('tools/call', { name, arguments: { prompt: 'hello' }, _meta: modernMeta() }),
      modernHeaders('tools/call', name),
    );
    expect({ status: raw.status, error: raw.message?.error }).toEqual({
      status: 400,
      error: { code: -32021, message: expect.any(String), data: { requiredCapabilities: { sampling: {} } } },
    });
    // The refused calls are over: the next caller's requests are relayed (only while one call to the upstream is in flight).
    const { client, asked } = await answeringV2Client('sampled after the refusals');
    await expectRelayed(client, 'sampled after the refusals', asked);
    await client.close();
  });
});

interface ToolCaller {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<object>;
}

async function connectV1Client(url: string) {
  return (await connectV1(url)).client;
}
