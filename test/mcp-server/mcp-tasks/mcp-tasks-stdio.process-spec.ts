/**
 * MCP Tasks over `switchboard mcp` (stdio, embedded): the 1.x SDK client's experimental tasks in
 * the 2025-11-25 era, and a 2026-07-28 exchange spoken raw (the 2.x Client refuses task handles,
 * and ext-tasks' raw path is HTTP's): a task handle from `tools/call`, then `tasks/get` until the
 * outcome, and `tasks/update` answering a question.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { TEST_AGENTS_TOML } from '../../support/test-agents';
import { writeConfigFile } from '../../support/config-file';
import { eventually } from '../../support/eventually';
import { textOf } from '../support/mcp-clients';
import { modernMeta } from '../support/raw-mcp';
import { StdioExchange } from '../support/stdio-exchange';
import { BOOKER_TOML } from '../support/task-agents';

const BIN = resolve(__dirname, '../../../bin/switchboard.js');
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

function command(): { command: string; args: string[]; cwd: string; env: Record<string, string> } {
  const env = {
    PATH: process.env.PATH ?? '',
    LOG_LEVEL: 'warn',
    SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML + BOOKER_TOML),
  };
  return { command: process.execPath, args: [BIN, 'mcp'], cwd: mkdtempSync(join(tmpdir(), 'switchboard-mcp-')), env };
}

type Streamed = { type: string; task?: { taskId: string; status: string }; result?: object; error?: Error };

describe('MCP tasks over switchboard mcp', () => {
  describe('2025-11-25, with the 1.x SDK client', () => {
    let client: Client;
    const questions: string[] = [];

    beforeAll(async () => {
      client = new Client({ name: 'stdio-tasks-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        questions.push(request.params.message);
        return { action: 'accept', content: { answer: 'Lisbon' } };
      });
      await client.connect(new StdioClientTransport({ ...command(), stderr: 'ignore' }));
      // The client learns which tools may run as tasks from the list.
      await client.listTools();
    });

    afterAll(() => client?.close());

    async function stream(tool: string, message: string): Promise<Streamed[]> {
      const seen: Streamed[] = [];
      for await (const item of client.experimental.tasks.callToolStream({ name: tool, arguments: { message } }))
        seen.push(item as Streamed);
      return seen;
    }

    it('declares tasks', () => {
      expect(client.getServerCapabilities()?.tasks).toEqual({
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
    });

    it('runs an agent as a task: created, its result read, then got and listed by id', async () => {
      const seen = await stream('switchboard_agent_echo', 'over stdio');
      expect(seen[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
      expect(seen.at(-1)?.type).toBe('result');
      expect(textOf(seen.at(-1)!.result!)).toBe('over stdio');
      const taskId = seen[0].task!.taskId;
      expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ taskId, status: 'completed' });
      expect((await client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toContain(taskId);
    });

    it('asks the question of a task waiting for input through tasks/result, and the answer finishes it', async () => {
      const seen = await stream('switchboard_agent_booker', 'book a flight');
      expect(questions).toEqual(['Which city?']);
      expect(textOf(seen.at(-1)!.result!)).toBe('Booked.');
    });
  });

  describe('2026-07-28, spoken raw', () => {
    let stdio: StdioExchange;
    /** Every request's envelope: this era's `_meta`, its client taking the tasks extension. */
    const envelope = () => ({
      ...modernMeta(),
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } },
    });
    const request = (method: string, params: Record<string, unknown>) =>
      stdio.request(method, { ...params, _meta: envelope() });

    beforeAll(async () => {
      const { command: node, args, cwd, env } = command();
      stdio = new StdioExchange(node, args, { cwd, env });
      const discovered = await stdio.request('server/discover', { _meta: envelope() });
      expect(discovered.error).toBeUndefined();
    });

    afterAll(() => stdio?.close());

    async function startTask(agent: string, message: string): Promise<string> {
      const answer = await request('tools/call', { name: `switchboard_agent_${agent}`, arguments: { message } });
      expect(answer.result).toMatchObject({
        resultType: 'task',
        status: 'working',
        taskId: expect.any(String),
        pollIntervalMs: expect.any(Number),
      });
      return answer.result!.taskId as string;
    }

    const taskGet = (taskId: string) =>
      request('tasks/get', { taskId }).then(({ result, error }) => result ?? { error });

    it('answers a task-taking tools/call with a task handle, and tasks/get with the outcome once it ends', async () => {
      const taskId = await startTask('echo', 'raw 2026');
      const ended = await eventually(
        () => taskGet(taskId),
        (task) => task.status !== 'working',
      );
      expect(ended).toMatchObject({
        resultType: 'complete',
        taskId,
        status: 'completed',
        result: { resultType: 'complete' },
      });
      expect(textOf(ended.result as object)).toBe('raw 2026');
    });

    it('asks a question in tasks/get and takes the answer from tasks/update', async () => {
      const taskId = await startTask('booker', 'book a flight');
      const waiting = await eventually(
        () => taskGet(taskId),
        (task) => task.status === 'input_required',
      );
      const [[key, question]] = Object.entries(
        waiting.inputRequests as Record<string, { method: string; params: { message: string } }>,
      );
      expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'Which city?' } });
      const updated = await request('tasks/update', {
        taskId,
        inputResponses: { [key]: { action: 'accept', content: { answer: 'Lisbon' } } },
      });
      expect(updated.result).toMatchObject({ resultType: 'complete' });
      const ended = await eventually(
        () => taskGet(taskId),
        (task) => task.status !== 'working' && task.status !== 'input_required',
      );
      expect(textOf(ended.result as object)).toBe('Booked.');
    });

    it('cancels a task with tasks/cancel, and answers an unknown task with -32602', async () => {
      const taskId = await startTask('slow', 'long');
      expect((await request('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
      expect(await taskGet(taskId)).toMatchObject({ status: 'cancelled' });
      expect((await request('tasks/get', { taskId: 'no-such-task' })).error).toMatchObject({ code: -32602 });
    });

    it('refuses tasks/get, tasks/update and tasks/cancel without the extension declared with -32021 naming it, and leaves the task be', async () => {
      const taskId = await startTask('booker', 'book a flight');
      const undeclared = { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
      for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
        const { result, error } = await stdio.request(method, {
          taskId,
          ...(method === 'tasks/update' && { inputResponses: {} }),
          _meta: undeclared,
        });
        expect({ method, result, error }).toEqual({
          method,
          result: undefined,
          error: {
            code: -32021,
            message: expect.any(String),
            data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
          },
        });
      }
      expect(
        await eventually(
          () => taskGet(taskId),
          (task) => task.status !== 'working',
        ),
      ).toMatchObject({ status: 'input_required' });
    });
  });
});
