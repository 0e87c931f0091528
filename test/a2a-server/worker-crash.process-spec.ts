/**
 * One API process and two worker processes with short BullMQ stall settings: a worker killed with
 * SIGKILL mid-turn leaves no task working forever. The other worker's stalled check re-queues the
 * turn, and its re-run fails the task, which every open stream then sees.
 */
import { type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client } from '@a2a-js/sdk/client';
import { TERMINAL_TASK_STATES } from '../../src/common/task-states';
import { writeConfigFile } from '../support/config-file';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { artifactText, asTask, sdkClient, userMessage } from '../support/sdk-client';
import { type ServiceProcess, ServiceProcesses, stateOf, within } from '../support/service-processes';
import { LONG_AGENT_TOML, QUICK_STALL_TOML, STALL_TIMINGS, TEST_AGENTS_TOML } from '../support/test-agents';

jest.setTimeout(40_000);

const { lockMs: LOCK_DURATION_MS, stalledMs: STALLED_INTERVAL_MS } = STALL_TIMINGS;
/** Longer than the lock and a stalled check together: a live worker must have renewed its lock by then. */
const HEALTHY_TURN_MS = LOCK_DURATION_MS + 2 * STALLED_INTERVAL_MS + 500;
const STOPPED_WORKER = 'The worker running this task stopped before the turn finished.';

const CONFIG = TEST_AGENTS_TOML + LONG_AGENT_TOML + QUICK_STALL_TOML;

interface Seen {
  event: StreamResponse;
  at: number;
}

function statusText(task: Task): string | undefined {
  const part = task.status?.message?.parts[0];
  return part?.content?.$case === 'text' ? part.content.value : undefined;
}

/**
 * Reads a stream in the background, timestamping each event, so a test can look at it while it
 * runs; `until` resolves once what has been seen satisfies `done`, or the stream has ended.
 */
function follow(stream: AsyncIterable<StreamResponse>): {
  seen: Seen[];
  ended: Promise<void>;
  until(done: () => boolean): Promise<void>;
} {
  const seen: Seen[] = [];
  const checks = new Set<() => void>();
  const ended = (async () => {
    for await (const event of stream) {
      seen.push({ event, at: Date.now() });
      for (const check of checks) check();
    }
  })();
  ended.catch(() => undefined); // awaited by the test
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!done()) return;
        checks.delete(check);
        resolve();
      };
      checks.add(check);
      check();
      void ended.finally(resolve).catch(() => undefined);
    });
  return { seen, ended, until };
}

describe('a worker process killed mid-turn', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let services: ServiceProcesses;
  let api: ServiceProcess;
  let first: ServiceProcess;
  let second: ServiceProcess | undefined;

  const client = (agent: string): Promise<Client> => sdkClient(api.baseUrl, agent, 'JSONRPC');

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(CONFIG),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    // Only W1 runs while the turn is sent, so W1 is the one that takes it.
    [api, first] = await Promise.all([services.api('api'), services.worker('worker-1')]);
  });

  afterAll(async () => {
    await services?.stopAll();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('ends the open stream and the task failed, not working forever', async () => {
    const text = 'abcdefghijklmnopqrst';
    const { seen, ended, until } = follow((await client('long')).sendMessageStream(userMessage(text)));
    const chunks = () => seen.filter(({ event }) => event.payload?.$case === 'artifactUpdate').length;
    const terminal = () =>
      seen.find(({ event }) => {
        const state = stateOf(event);
        return state !== undefined && TERMINAL_TASK_STATES.includes(state);
      });
    await within(
      until(() => chunks() >= 1),
      5_000,
      'the first chunk',
    );
    const turnStarted = seen[0].at;
    second = await services.worker('worker-2');

    // A live worker renews its lock: the turn must still be streaming well past the lock duration.
    await within(
      until(() => seen.at(-1)!.at - turnStarted >= HEALTHY_TURN_MS || terminal() !== undefined),
      10_000,
      'a chunk past the lock duration',
    );
    await services.explain(() => expect(terminal()?.event).toBeUndefined());
    const chunksBeforeKill = chunks();

    const killed = Date.now();
    expect(await first.kill()).toBe('SIGKILL');
    await services.explain(() => within(ended, 15_000, 'the client stream after kill -9 of its worker'));

    const last = seen.at(-1)!;
    const taskId = (seen[0].event.payload!.value as Task).id;
    const task = await (await client('long')).getTask({ id: taskId, tenant: '' });
    await services.explain(() => {
      expect(stateOf(last.event)).toBe(TaskState.TASK_STATE_FAILED);
      expect(last.at).toBeGreaterThanOrEqual(killed);
      expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
      expect(statusText(task)).toBe(STOPPED_WORKER);
    });
    // Everything the dead worker streamed before it died stays in the task, in order and once, even
    // the chunks after its last checkpoint, which only the stream held.
    const streamed = seen.flatMap(({ event }) =>
      event.payload?.$case === 'artifactUpdate' ? (event.payload.value.artifact?.parts ?? []) : [],
    );
    const streamedText = streamed.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
    expect(text.startsWith(streamedText)).toBe(true);
    expect(streamedText.length).toBeGreaterThanOrEqual(chunksBeforeKill);
    expect(artifactText(task)).toBe(streamedText);
  });

  it('runs the next turn to completion on the surviving worker, past the lock duration', async () => {
    expect(second?.running).toBe(true);
    const started = Date.now();
    // Ten characters: ten chunks 500 ms apart, a turn longer than the lock duration and two stalled checks.
    const task = asTask(
      await within(
        (await client('long')).sendMessage(userMessage('ABCDEFGHIJ')),
        15_000,
        'a blocking send after the crash',
      ),
    );
    await services.explain(() => {
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(artifactText(task)).toBe('ABCDEFGHIJ');
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(HEALTHY_TURN_MS);
  });
});
