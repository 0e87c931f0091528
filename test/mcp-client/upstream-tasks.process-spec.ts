/**
 * Tools of an upstream MCP server that runs them as MCP tasks (2025-11-25; the 1.x SDK's
 * experimental task server): Switchboard calls them as tasks, created and then awaited, so a tool
 * that requires a task can be called at all, through the tool source agents use and through /mcp.
 */
import { join } from 'node:path';
import { connectV1, textOf } from '../mcp-server/support/mcp-clients';
import { eventually } from '../support/eventually';
import { startMcpApp, stdioServer, toolsListed, type McpTestApp } from './support/mcp-app';

const TASK_SERVER = join(__dirname, 'fixtures/task-server.cjs');

describe('upstream tools that run as MCP tasks', () => {
  let target: McpTestApp;

  beforeAll(async () => {
    target = await startMcpApp(stdioServer('tasks', TASK_SERVER));
    await toolsListed(target.tools, ['mcp_tasks_sum', 'mcp_tasks_release']);
  });

  afterAll(() => target?.app.close());

  const tasksCreated = async () =>
    JSON.parse(textOf(await target.tools.call('mcp_tasks_calls', {}))) as { sum: number };

  /** Calls `sum` as `call` does, and releases its task once the server has created it: the task's result is the answer. */
  async function sumOnceReleased(call: () => Promise<object>): Promise<string> {
    const before = (await tasksCreated()).sum;
    const answer = call();
    await eventually(tasksCreated, ({ sum }) => sum === before + 1);
    await target.tools.call('mcp_tasks_release', {});
    return textOf(await answer);
  }

  it("calls a tool that requires a task as one, and answers with the task's result", async () => {
    expect(await sumOnceReleased(() => target.tools.call('mcp_tasks_sum', { a: 1, b: 2 }))).toBe('3');
  });

  it('does the same for a caller of /mcp, which calls the tool as any other', async () => {
    const { client } = await connectV1(target.url);
    try {
      expect(await sumOnceReleased(() => client.callTool({ name: 'mcp_tasks_sum', arguments: { a: 20, b: 22 } }))).toBe(
        '42',
      );
    } finally {
      await client.close();
    }
  });
});
