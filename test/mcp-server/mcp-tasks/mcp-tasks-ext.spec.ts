/**
 * MCP Tasks on Switchboard's durable tasks through the official `@modelcontextprotocol/ext-tasks`
 * client, in both eras: 2025-11-25 (`capabilities.tasks`, a 2.x Client's legacy session) and the
 * 2026-07-28 tasks extension (its task traffic over the raw path the extension asks hosts for).
 */
import { GetTaskRequest, Role, TaskState } from '@a2a-js/sdk';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { resultFromTaskOutcome, TaskCancelledError } from '@modelcontextprotocol/ext-tasks/client';
import { taskId } from '@modelcontextprotocol/ext-tasks/core';
import { partsText } from '../../../src/common/parts';
import { sdkClient } from '../../support/sdk-client';
import { TEST_AGENTS_TOML } from '../../support/test-agents';
import { writeConfigFile } from '../../support/config-file';
import { startTestApp, testConfig } from '../../support/test-app';
import { eventually } from '../../support/eventually';
import { callAsTask, ExtTaskSessions, type Era } from '../support/ext-task-sessions';
import { textOf } from '../support/mcp-clients';
import { modernHeaders, modernMeta, rawMcp, rpc } from '../support/raw-mcp';
import { BOOKER_TOML } from '../support/task-agents';

describe('MCP tasks with the ext-tasks client', () => {
  let app: NestFastifyApplication;
  let url: string;
  const sessions = new ExtTaskSessions();

  beforeAll(async () => {
    ({ app, url } = await startTestApp(
      testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML + BOOKER_TOML) }),
    ));
  });

  afterAll(async () => {
    await sessions.closeAll();
    await app?.close();
  });

  const session = (era: Era, answer?: (question: string) => string) => sessions.open(url, era, { answer });

  async function a2aTask(agent: string, taskId: string) {
    return (await sdkClient(url, agent, 'JSONRPC')).getTask(GetTaskRequest.fromJSON({ id: taskId }));
  }

  describe.each<[string, Era]>([
    ['2025-11-25', 'legacy'],
    ['2026-07-28', 'modern'],
  ])('%s', (_label, era) => {
    it('sees the era’s tasks support', async () => {
      expect((await session(era)).capabilities).toMatchObject({ execution: true, cancellation: true });
    });

    it('runs an agent as a task and settles it with its result; the same task over A2A', async () => {
      const execution = await callAsTask(await session(era), 'echo', `settled in ${era}`);
      const { outcome } = await execution.settle();
      expect(textOf(resultFromTaskOutcome(outcome))).toBe(`settled in ${era}`);
      expect((await a2aTask('echo', execution.handle.taskId)).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    });

    it('settles a failed turn as a failed outcome, with the reason', async () => {
      const { outcome } = await (await callAsTask(await session(era), 'broken', 'x')).settle();
      expect(outcome.status).toBe('failed');
      expect(() => resultFromTaskOutcome(outcome)).toThrow(/boom|failed/i);
    });

    it('cancels a running task: the outcome is cancelled, and so is the A2A task', async () => {
      const execution = await callAsTask(await session(era), 'slow', 'long');
      await execution.cancel();
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('cancelled');
      expect(() => resultFromTaskOutcome(outcome)).toThrow(TaskCancelledError);
      expect((await a2aTask('slow', execution.handle.taskId)).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    });

    it("runs subagent_start as a task, its handle passing the tool's output schema", async () => {
      const execution = await (
        await session(era)
      ).callTool<object>(
        'subagent_start',
        { subagentUri: 'a2a-agent://echo', text: `bridged in ${era}` },
        { task: { preference: 'require' } },
      );
      expect(execution.kind).toBe('task');
      const { outcome } = await (execution as typeof execution & { kind: 'task' }).settle();
      expect(textOf(resultFromTaskOutcome(outcome))).toBe(`bridged in ${era}`);
    });

    it('reads a task by its id, and answers an unknown one with -32602', async () => {
      const tasks = await session(era);
      const execution = await callAsTask(tasks, 'echo', 'by id');
      await execution.settle({ close: false });
      expect(await tasks.task(execution.handle.taskId).snapshot()).toMatchObject({
        taskId: execution.handle.taskId,
        status: 'completed',
        retentionMs: expect.any(Number),
      });
      await expect(tasks.task(taskId('no-such-task')).snapshot()).rejects.toMatchObject({ code: -32602 });
    });
  });

  it('lists the caller’s tasks (2025-11-25)', async () => {
    const tasks = await session('legacy');
    const execution = await callAsTask(tasks, 'echo', 'listed');
    await execution.settle();
    expect((await tasks.listTasks()).tasks.map(({ taskId }) => taskId)).toContain(execution.handle.taskId);
  });

  it.each<[string, Era]>([
    ["a question pushed on the session's GET stream (2025-11-25)", 'legacy'],
    ['tasks/get and tasks/update (2026-07-28)', 'modern'],
  ])(
    'answers the question of a task waiting for input through %s: the answer is the next A2A message',
    async (_how, era) => {
      const questions: string[] = [];
      const tasks = await session(era, (question) => {
        questions.push(question);
        return 'Lisbon';
      });
      const execution = await callAsTask(tasks, 'booker', 'book a flight');
      const { outcome } = await execution.settle();
      expect(questions).toEqual(['Which city?']);
      expect(textOf(resultFromTaskOutcome(outcome))).toBe('Booked.');
      const task = await a2aTask('booker', execution.handle.taskId);
      expect(task.history.filter(({ role }) => role === Role.ROLE_USER).map(({ parts }) => partsText(parts))).toEqual([
        'book a flight',
        'Lisbon',
      ]);
    },
  );

  describe('2026-07-28 requests that do not declare what they need', () => {
    const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
    /** One 2026-07-28 request for task `taskId`, as sent byte for byte by a client declaring `capabilities`. */
    const taskRequest = (method: string, taskId: string, capabilities: object, params: object = {}) =>
      rawMcp(
        url,
        'POST',
        rpc(method, {
          taskId,
          ...params,
          _meta: { ...modernMeta(), 'io.modelcontextprotocol/clientCapabilities': capabilities },
        }),
        modernHeaders(method, taskId),
      );
    const declaring = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
    let waiting: string;

    beforeAll(async () => {
      // A real task that waits for its caller's answer for the rest of this file.
      waiting = (await callAsTask(await session('modern'), 'booker', 'book a flight')).handle.taskId;
      await eventually(
        async () => (await taskRequest('tasks/get', waiting, declaring)).message?.result,
        (task) => (task as { status?: string })?.status === 'input_required',
      );
    });

    it.each<[string, object]>([
      ['no capabilities', {}],
      [
        'only the 2025-11-25 tasks capability',
        { elicitation: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      ],
    ])(
      'tasks/get, tasks/update and tasks/cancel from a client declaring %s: -32021 naming the extension (HTTP 400), the task neither shown nor touched',
      async (_declared, capabilities) => {
        for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
          const answer = await taskRequest(
            method,
            waiting,
            capabilities,
            method === 'tasks/update' ? { inputResponses: {} } : {},
          );
          expect({ method, status: answer.status, error: answer.message?.error }).toEqual({
            method,
            status: 400,
            error: {
              code: -32021,
              message: expect.any(String),
              data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
            },
          });
          expect(answer.body).not.toContain('Which city?');
        }
        expect((await a2aTask('booker', waiting)).status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      },
    );

    it('tasks/get of a task waiting for input, from a client that did not declare elicitation: -32021 naming form elicitation; declared, the question', async () => {
      const refused = await taskRequest('tasks/get', waiting, { extensions: { [TASKS_EXTENSION]: {} } });
      expect({ status: refused.status, error: refused.message?.error }).toEqual({
        status: 400,
        error: {
          code: -32021,
          message: expect.any(String),
          data: { requiredCapabilities: { elicitation: { form: {} } } },
        },
      });
      const asked = await taskRequest('tasks/get', waiting, declaring);
      expect(asked.message?.result).toMatchObject({ status: 'input_required', inputRequests: expect.any(Object) });
    });
  });
});
