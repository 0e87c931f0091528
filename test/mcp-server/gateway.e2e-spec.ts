/**
 * `/mcp` as a gateway: server-everything (stdio) behind Switchboard, driven by the official SDK
 * clients of both eras. An MCP client should lose nothing by going through Switchboard.
 */
import { firstText, startMcpApp, stdioServer, toolsListed, type McpTestApp } from '../mcp-client/support/mcp-app';
import { EVERYTHING_SERVER } from '../mcp-client/support/mcp-servers';
import { connectV1, connectV2 } from './support/mcp-clients';

const MAX_RESULT_CHARS = 300;
let target: McpTestApp;

beforeAll(async () => {
  target = await startMcpApp(
    stdioServer('everything', EVERYTHING_SERVER, ['stdio'], 'timeout_secs = 30') + `\n[tools]\ntimeout_secs = 2\nmax_result_chars = ${MAX_RESULT_CHARS}\n`,
  );
  await toolsListed(target.tools, ['mcp_everything_echo']);
});

afterAll(async () => {
  await target?.app.close();
});

describe('re-exposed upstream tools', () => {
  it.each([
    ['1.x', connectV1Client],
    ['2.x', connectV2],
  ])('keep title, annotations and outputSchema, and results keep structuredContent (%s client)', async (_era, connect) => {
    const client = await connect(target.url);
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === 'mcp_everything_get_structured_content');
    expect(tool).toMatchObject({
      title: 'Get Structured Content Tool',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      outputSchema: { type: 'object', properties: { temperature: { type: 'number' }, conditions: { type: 'string' }, humidity: { type: 'number' } } },
    });
    const result = await client.callTool({ name: 'mcp_everything_get_structured_content', arguments: { location: 'Chicago' } });
    expect(result.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    await client.close();
  });
});

describe('tools.max_result_chars and tools.timeout_secs', () => {
  it('cut an upstream tool result called through /mcp', async () => {
    const client = await connectV1Client(target.url);
    const message = 'x'.repeat(MAX_RESULT_CHARS * 2);
    const result = await client.callTool({ name: 'mcp_everything_echo', arguments: { message } });
    expect(firstText(result)).toBe(`${`Echo: ${message}`.slice(0, MAX_RESULT_CHARS)}\n[truncated: ${MAX_RESULT_CHARS} of ${message.length + 6} characters shown]`);
    await client.close();
  });

  it('end an upstream tool call through /mcp that outlasts the timeout, as an error result', async () => {
    const client = await connectV2(target.url);
    const started = Date.now();
    const result = await client.callTool({ name: 'mcp_everything_trigger_long_running_operation', arguments: { duration: 20, steps: 2 } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toBe('Tool "mcp_everything_trigger_long_running_operation" did not answer within 2000 ms.');
    expect(Date.now() - started).toBeLessThan(10_000);
    await client.close();
  });
});

async function connectV1Client(url: string) {
  return (await connectV1(url)).client;
}
