/**
 * SIGTERM to an embedded `switchboard serve` whose turns wait: in memory those turns are lost with
 * the process, so it answers their callers at once (each task failed, its status naming the stop)
 * and exits 0 within seconds, not after `server.shutdown_timeout_secs`. A real process, the SDK's
 * client, a real signal.
 */
import { ListTasksRequest, type Message, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type ServiceProcess, ServiceProcesses, stateOf, within } from '../support/service-processes';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { follow } from '../faults/support/followed-streams';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { bearer } from '../support/test-app';

jest.setTimeout(60_000);

/** Two turns run at a time; each waits two minutes after its first events. */
const WAITING_AGENT = `
[[agents]]
name = "waiting"
[agents.executor]
type = "script"
steps = [{ status = "working" }, { artifact = { text = "started" } }, { delay_ms = 120000 }, { status = "completed", text = "done" }]

[queue]
concurrency = 2
`;
/** Far below the 25 s the shutdown may take before it gives up and exits 1. */
const PROMPT_EXIT_MS = 5_000;
const STOPPED = /Switchboard stopped before this turn ended/;

function statusText(task: Task | undefined): string | undefined {
  const part = task?.status?.message?.parts[0]?.content;
  return part?.$case === 'text' ? part.value : undefined;
}

function lastStatusText(events: StreamResponse[]): string | undefined {
  const last = events.at(-1)?.payload;
  const part = last?.$case === 'statusUpdate' ? last.value.status?.message?.parts[0]?.content : undefined;
  return part?.$case === 'text' ? part.value : undefined;
}

/** How many agent turns wait in the in-process queue, read from the API's metrics. */
async function waitingTurns(api: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${api.baseUrl}/metrics`, { headers: bearer() })).text();
  return Number(/^switchboard_queue_jobs\{queue="agent-turns",state="waiting"\} (\d+)$/m.exec(text)?.[1] ?? NaN);
}

describe('embedded serve on SIGTERM with turns under way', () => {
  let services: ServiceProcesses;

  beforeAll(() => {
    services = new ServiceProcesses({ SWITCHBOARD_CONFIG: writeConfigFile(WAITING_AGENT) });
  });

  afterAll(() => services?.stopAll());

  it('fails each waiting turn naming the stop, answers its blocking send and ends its stream, and exits 0 at once', async () => {
    const api = await services.api('embedded');
    const client = await sdkClient(api.baseUrl, 'waiting', 'JSONRPC');
    const stream = follow(client.sendMessageStream(userMessage('streamed')));
    await eventually(async () => stream.events.some((event) => event.payload?.$case === 'artifactUpdate'), Boolean);
    const settle = (sent: Promise<Message | Task>) => sent.then(asTask, (error: Error) => error);
    const running = settle(client.sendMessage(userMessage('running')));
    const working = async () =>
      (await client.listTasks(ListTasksRequest.fromJSON({ status: 'TASK_STATE_WORKING' }))).tasks.length;
    await eventually(working, (count) => count === 2);
    // Both places taken: this one's turn waits in the queue.
    const queued = settle(client.sendMessage(userMessage('queued')));
    await eventually(
      () => waitingTurns(api),
      (count) => count === 1,
    );

    const signalled = Date.now();
    const exited = api.stop();

    await services.explain(async () => {
      expect(await within(stream.ended, PROMPT_EXIT_MS, 'the stream')).toBeUndefined();
      expect(stateOf(stream.events.at(-1))).toBe(TaskState.TASK_STATE_FAILED);
      expect(lastStatusText(stream.events)).toMatch(STOPPED);
      for (const [name, answer] of Object.entries({ running, queued })) {
        const task = await within(answer, PROMPT_EXIT_MS, `the ${name} blocking send`);
        expect({ name, state: (task as Task).status?.state, text: statusText(task as Task) }).toEqual({
          name,
          state: TaskState.TASK_STATE_FAILED,
          text: expect.stringMatching(STOPPED),
        });
      }
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(PROMPT_EXIT_MS);
    });
  });
});
