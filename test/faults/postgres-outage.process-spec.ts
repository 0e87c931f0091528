/**
 * Postgres (the test's own cluster) stopped mid-turn under one API and one worker process. The
 * turn's writes are retried: a short outage costs a client nothing but time; one longer than
 * `tasks.write_retry_secs` fails the turn visibly (the blocking call answers `failed`, the task row
 * is failed by the orphaned-task sweep once Postgres is back), never a task `working` forever. A
 * send that starts a task while Postgres is down is refused at once, and an agent that acts outside
 * its task (a model, a tool) never runs for it: a resend does nothing twice.
 */
import { type Task, TaskState } from '@a2a-js/sdk';
import { type Client } from '@a2a-js/sdk/client';
import { NOT_RECORDED_TEXT } from '../../src/tasks/lifecycle/turn-not-recorded.error';
import { ORPHANED_TEXT } from '../../src/tasks/lifecycle/orphaned-task-sweep.job';
import { artifactText, asTask, sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, within } from '../support/service-processes';
import { ScriptedLlmServer } from '../agents/support/scripted-llm-server';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { PostgresProcess } from '../support/postgres-process';
import { applyMigrations, deleteRedisKeys, testRedisPrefix, testRedisUrl } from '../support/test-database';
import { jsonRpcSend, restSend, taskRows } from './support/store-outage-clients';

jest.setTimeout(120_000);

const WRITE_RETRY_SECS = 5;

/**
 * `pause` saves its task as working, then 1.5 s later answers in one chunk: its last save is the one
 * an outage then hits. `assistant` asks a model (the test's scripted server): a call to it is the
 * agent acting, which a send the service cannot store must never cause.
 */
const config = (llmBaseUrl: string) => `${TEST_AGENTS_TOML}
[outbound]
allow_hosts = ["127.0.0.1"]

[[agents]]
name = "assistant"
description = "Asks a model"
[agents.executor]
type = "llm"
base_url = "${llmBaseUrl}"
model = "scripted"

[[agents]]
name = "pause"
description = "Works, pauses 1.5 s, then answers in one chunk"
[agents.executor]
type = "echo"
delay_ms = 1500

[tasks]
write_retry_secs = ${WRITE_RETRY_SECS}
orphan_sweep_secs = 1
`;

function statusText(task: Task): string | undefined {
  const part = task.status?.message?.parts[0];
  return part?.content?.$case === 'text' ? part.content.value : undefined;
}

describe('a Postgres outage mid-turn', () => {
  let postgres: PostgresProcess;
  let databaseUrl: string;
  let redisPrefix: string;
  let services: ServiceProcesses;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let llm: ScriptedLlmServer;

  const client = (): Promise<Client> => sdkClient(api.baseUrl, 'pause', 'JSONRPC');

  /** Sends `text` to `pause` (blocking) and resolves once its task is working in the database: its last save is still to come. */
  async function startTurn(text: string): Promise<{ answer: Promise<Task>; taskId: string }> {
    const known = new Set((await taskRows(databaseUrl)).map((row) => row.id));
    const answer = (await client()).sendMessage(userMessage(text)).then(asTask);
    answer.catch(() => undefined); // awaited by the test
    const rows = await eventually(
      () => taskRows(databaseUrl),
      (all) => all.some((row) => !known.has(row.id) && row.state === 'TASK_STATE_WORKING'),
    );
    return { answer, taskId: rows.find((row) => !known.has(row.id))!.id };
  }

  beforeAll(async () => {
    llm = await ScriptedLlmServer.start();
    postgres = await PostgresProcess.start();
    databaseUrl = await postgres.createDatabase('switchboard');
    await applyMigrations(databaseUrl);
    redisPrefix = testRedisPrefix();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(config(llm.baseUrl)),
      DATABASE_URL: databaseUrl,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    [api, worker] = await Promise.all([services.api('api'), services.worker('worker')]);
  });

  afterAll(async () => {
    await services?.stopAll();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await postgres?.destroy();
    await llm?.close();
  });

  afterEach(async () => {
    if (!postgres.running) await postgres.restart();
  });

  it('answers a blocking send with the whole task once Postgres is back within the retry deadline', async () => {
    const { answer, taskId } = await startTurn('kept through the outage');
    await postgres.stop();
    // The turn's last save fails and is retried: the outage has hit the end of the turn.
    await within(worker.logged(taskId, 'task write failed; retrying'), 10_000, 'the worker retrying the task write');
    await postgres.restart();

    const task = await services.explain(() => within(answer, 20_000, 'the blocking send after Postgres came back'));
    const stored = await (await client()).getTask({ id: taskId, tenant: '' });
    await services.explain(() => {
      expect({ state: task.status?.state, text: artifactText(task) }).toEqual({
        state: TaskState.TASK_STATE_COMPLETED,
        text: 'kept through the outage',
      });
      expect({ state: stored.status?.state, text: artifactText(stored) }).toEqual({
        state: TaskState.TASK_STATE_COMPLETED,
        text: 'kept through the outage',
      });
    });
  });

  it('answers a blocking send with a failed task when Postgres stays down past the deadline, and the task ends failed once it is back', async () => {
    const { answer, taskId } = await startTurn('lost in the outage');
    await postgres.stop();

    const task = await services.explain(() => within(answer, 20_000, 'the blocking send while Postgres stays down'));
    expect({ state: task.status?.state, text: statusText(task) }).toEqual({
      state: TaskState.TASK_STATE_FAILED,
      text: NOT_RECORDED_TEXT,
    });
    // Its log line may reach the test after the answer (two pipes): it is waited for.
    await within(
      worker.logged(taskId, 'agent turn failed: its task could not be recorded'),
      10_000,
      'the worker logging the failed turn',
    );

    await postgres.restart();
    const rows = await services.explain(() =>
      eventually(
        () => taskRows(databaseUrl),
        (all) => all.find((row) => row.id === taskId)?.state !== 'TASK_STATE_WORKING',
      ),
    );
    expect(rows.find((row) => row.id === taskId)).toEqual({
      id: taskId,
      state: 'TASK_STATE_FAILED',
      statusText: ORPHANED_TEXT,
    });
  });

  it('refuses a blocking send whose new task could not be stored at once with a retryable error naming no task', async () => {
    const before = await taskRows(databaseUrl);
    await postgres.stop();
    const sends = Promise.all([
      jsonRpcSend(api.baseUrl, 'echo', 'never stored', false),
      restSend(api.baseUrl, 'echo', 'never stored', false),
    ]);
    // Well under `tasks.write_retry_secs`: a task's first write is not retried, as nothing of it is kept.
    const [jsonRpc, rest] = await services.explain(() =>
      within(sends, (WRITE_RETRY_SECS * 1000) / 2, 'the blocking sends while Postgres is down'),
    );
    await postgres.restart();

    await services.explain(() => {
      expect(jsonRpc).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: { code: -32603, message: expect.stringContaining('temporarily unavailable') } },
      });
      expect(rest).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: { code: 503, message: expect.stringContaining('temporarily unavailable') } },
      });
      expect(JSON.stringify([jsonRpc.body, rest.body])).not.toMatch(/"result"|"task"|taskId/);
    });
    expect(await taskRows(databaseUrl)).toEqual(before);
  });

  it('refuses a blocking send to a new task at once while Postgres is down, before its agent acts', async () => {
    llm.play({ tokens: ['an answer nobody would hear'] });
    const before = await taskRows(databaseUrl);
    await postgres.stop();
    const sends = Promise.all([
      jsonRpcSend(api.baseUrl, 'assistant', 'never stored', false),
      restSend(api.baseUrl, 'assistant', 'never stored', false),
    ]);
    // Well under `tasks.write_retry_secs`: the task is written before the agent runs, and not retried.
    const [jsonRpc, rest] = await services.explain(() =>
      within(sends, (WRITE_RETRY_SECS * 1000) / 2, 'the blocking sends while Postgres is down'),
    );
    await postgres.restart();

    await services.explain(() => {
      expect(jsonRpc).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: { code: -32603, message: expect.stringContaining('temporarily unavailable') } },
      });
      expect(rest).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: { code: 503, message: expect.stringContaining('temporarily unavailable') } },
      });
      expect(llm.requests).toEqual([]);
    });
    expect(await taskRows(databaseUrl)).toEqual(before);
  });

  it('refuses a non-blocking send while Postgres is down with a retryable error, and stores nothing for it', async () => {
    const before = await taskRows(databaseUrl);
    await postgres.stop();
    const [jsonRpc, rest] = [
      await jsonRpcSend(api.baseUrl, 'echo', 'while down', true),
      await restSend(api.baseUrl, 'echo', 'while down', true),
    ];
    await postgres.restart();

    await services.explain(() => {
      expect(jsonRpc).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: { code: -32603, message: expect.stringContaining('temporarily unavailable') } },
      });
      expect(rest).toMatchObject({
        status: 503,
        retryAfter: '5',
        body: { error: { code: 503, message: expect.stringContaining('temporarily unavailable') } },
      });
    });
    expect(await taskRows(databaseUrl)).toEqual(before);
  });
});
