/**
 * The compose stack under test/deploy/stack.toml (slower agents, short stall settings), set as the
 * README shows (SWITCHBOARD_CONFIG_FILE in .env) after the fresh-clone checks: turns that outlive a
 * killed worker and a restarted API, and a cancel, driven from outside with the official A2A client.
 */
import { CancelTaskRequest, GetTaskRequest, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eventually } from '../support/eventually';
import { a2a, artifactText, composeProject, message } from './support/stack';

const run = promisify(execFile);

jest.setTimeout(180_000);

function stateOf(event: StreamResponse | undefined): TaskState | undefined {
  const payload = event?.payload;
  if (payload?.$case === 'statusUpdate') return payload.value.status?.state;
  if (payload?.$case === 'task') return payload.value.status?.state;
  return undefined;
}

async function docker(...args: string[]): Promise<string> {
  return (await run('docker', args)).stdout.trim();
}

/** The containers of a compose service (by compose's labels, the same for compose v1 and v2), oldest first. */
async function containers(service: string): Promise<string[]> {
  const filters = [
    '--filter',
    `label=com.docker.compose.project=${composeProject}`,
    '--filter',
    `label=com.docker.compose.service=${service}`,
  ];
  const names = await docker(
    'ps',
    '--all',
    ...filters,
    '--format',
    '{{.Label "com.docker.compose.container-number"}} {{.Names}}',
  );
  return names
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, name]) => name);
}

async function container(service: string): Promise<string> {
  const [first] = await containers(service);
  if (!first) throw new Error(`no container of service ${service} in ${composeProject}`);
  return first;
}

async function healthy(name: string): Promise<void> {
  await eventually(
    () => docker('inspect', '--format', '{{.State.Health.Status}}', name),
    (status) => status === 'healthy',
    90_000,
  );
}

/** Reads a stream in the background; `until` resolves once an event passes the test. */
function follow(stream: AsyncIterable<StreamResponse>) {
  const seen: StreamResponse[] = [];
  const ended = (async () => {
    for await (const event of stream) seen.push(event);
  })();
  ended.catch(() => undefined);
  const until = (test: (events: StreamResponse[]) => boolean) => eventually(async () => seen, test, 30_000);
  return { seen, ended, until };
}

const chunks = (events: StreamResponse[]) => events.filter((event) => event.payload?.$case === 'artifactUpdate').length;

describe('docker compose up, with the configuration under test', () => {
  it('streams a turn chunk by chunk through the official A2A client', async () => {
    const stream = follow((await a2a('slow')).sendMessageStream(message('0123456789')));
    await stream.ended;
    expect(chunks(stream.seen)).toBe(10);
    expect(stateOf(stream.seen.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('ends a turn whose worker is killed mid-turn: the task is not left working and its stream gets the end', async () => {
    const [first, second] = await containers('worker');
    expect(second).toBeDefined();
    // Only the first worker can take the turn while the second is paused.
    await docker('pause', second);
    const stream = follow((await a2a('slow')).sendMessageStream(message('abcdefghij')));
    try {
      await stream.until((events) => chunks(events) >= 2);
    } finally {
      await docker('unpause', second);
    }
    await docker('kill', first);
    await stream.ended;
    const final = stateOf(stream.seen.at(-1));
    expect([TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_COMPLETED]).toContain(final);
    const taskId = (stream.seen[0].payload!.value as Task).id;
    const task = await (await a2a('slow')).getTask(GetTaskRequest.fromJSON({ id: taskId }));
    expect(task.status?.state).toBe(final);
    await docker('start', first);
    await healthy(first);
  });

  it('keeps a turn going while the API restarts, and a resubscription sees it to its end', async () => {
    const text = 'ABCDEFGHIJKLMNOPQRST';
    const stream = follow((await a2a('long')).sendMessageStream(message(text)));
    await stream.until((events) => chunks(events) >= 1);
    const taskId = (stream.seen[0].payload!.value as Task).id;
    const api = await container('api');
    await docker('restart', '--time', '20', api);
    // The API drains, then ends the stream it can no longer follow with an error naming the task.
    await expect(stream.ended).rejects.toThrow(new RegExp(`Stopped following task ${taskId}.*shutting down`));
    await healthy(api);
    const resubscribed = follow((await a2a('long')).resubscribeTask({ id: taskId, tenant: '' }));
    await resubscribed.ended;
    // The task as it stood, then the chunks still to come, then the end.
    expect(resubscribed.seen[0].payload?.$case).toBe('task');
    expect(chunks(resubscribed.seen)).toBeGreaterThan(0);
    expect(stateOf(resubscribed.seen.at(-1))).toBe(TaskState.TASK_STATE_COMPLETED);
    const task = await (await a2a('long')).getTask(GetTaskRequest.fromJSON({ id: taskId }));
    expect(artifactText(task)).toBe(text);
  });

  it('cancels a running task', async () => {
    const client = await a2a('slow');
    const stream = follow(client.sendMessageStream(message('uvwxyzabcd')));
    await stream.until((events) => events.length >= 1);
    const taskId = (stream.seen[0].payload!.value as Task).id;
    expect((await client.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }))).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    await stream.ended;
  });
});
