import { StreamResponse, Task } from '@a2a-js/sdk';
import type { KeptTaskEvent } from '../tasks';
import { taskTimeline } from './task-timeline';

const ids = { taskId: 't', contextId: 'c' };
const caller = { messageId: 'm-user', role: 'ROLE_USER', parts: [{ text: 'hello' }] };
const canceledBy = { messageId: 'm-cancel', role: 'ROLE_AGENT', parts: [{ text: 'Task canceled.' }] };

let seq = 0;
function kept(at: string, event: Record<string, unknown>): KeptTaskEvent {
  return { id: String(++seq), at: new Date(at), event: StreamResponse.fromJSON(event) };
}

const submitted = (at: string) =>
  kept(at, {
    task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED', timestamp: at }, history: [caller] },
  });
const status = (at: string, state: string, message?: unknown) =>
  kept(at, { statusUpdate: { ...ids, status: { state, timestamp: at, message } } });
const chunk = (at: string, text: string, append: boolean) =>
  kept(at, { artifactUpdate: { ...ids, append, artifact: { artifactId: 'a1', name: 'echo', parts: [{ text }] } } });

/** The task as stored after those events: the SDK puts status messages in the history too. */
const stored = Task.fromJSON({
  id: 't',
  contextId: 'c',
  status: { state: 'TASK_STATE_CANCELED', timestamp: '2026-01-01T00:00:05.000Z', message: canceledBy },
  history: [caller, canceledBy],
  artifacts: [{ artifactId: 'a1', name: 'echo', parts: [{ text: 'Start' }, { text: 'ing' }] }],
});
const record = { task: stored, updatedAt: new Date('2026-01-01T00:00:06.000Z') };

const run = [
  submitted('2026-01-01T00:00:01.000Z'),
  // The worker announces the task again as it starts: the same state, nothing new.
  submitted('2026-01-01T00:00:01.500Z'),
  status('2026-01-01T00:00:02.000Z', 'TASK_STATE_WORKING'),
  chunk('2026-01-01T00:00:03.000Z', 'Start', false),
  chunk('2026-01-01T00:00:04.000Z', 'ing', true),
  status('2026-01-01T00:00:05.000Z', 'TASK_STATE_CANCELED', canceledBy),
];

describe('taskTimeline', () => {
  it('lists each status, message and artifact in the order they happened, each with its time', () => {
    expect(taskTimeline(record, run, [])).toEqual([
      { kind: 'message', at: '2026-01-01T00:00:01.000Z', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
      { kind: 'status', at: '2026-01-01T00:00:01.000Z', state: 'TASK_STATE_SUBMITTED' },
      { kind: 'status', at: '2026-01-01T00:00:02.000Z', state: 'TASK_STATE_WORKING' },
      {
        kind: 'artifact',
        at: '2026-01-01T00:00:03.000Z',
        artifactId: 'a1',
        name: 'echo',
        parts: [{ text: 'Start' }, { text: 'ing' }],
      },
      {
        kind: 'status',
        at: '2026-01-01T00:00:05.000Z',
        state: 'TASK_STATE_CANCELED',
        parts: [{ text: 'Task canceled.' }],
      },
    ]);
  });

  it('merges the activity in by time', () => {
    const call = {
      at: '2026-01-01T00:00:02.500Z',
      kind: 'tool_call' as const,
      summary: 'lookup (mcp: x)',
      durationMs: 10,
      outcome: 'ok',
    };
    const timeline = taskTimeline(record, run, [call]);
    expect(timeline.map((entry) => entry.kind)).toEqual([
      'message',
      'status',
      'status',
      'tool_call',
      'artifact',
      'status',
    ]);
  });

  it('shows what the store keeps once the stream has expired: earlier entries without a time, then the latest status', () => {
    expect(taskTimeline(record, [], [])).toEqual([
      { kind: 'message', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
      { kind: 'artifact', artifactId: 'a1', name: 'echo', parts: [{ text: 'Start' }, { text: 'ing' }] },
      {
        kind: 'status',
        at: '2026-01-01T00:00:05.000Z',
        state: 'TASK_STATE_CANCELED',
        parts: [{ text: 'Task canceled.' }],
      },
    ]);
  });

  it('gives an artifact whose first chunks were trimmed from the stream its whole stored parts', () => {
    const trimmed = run.slice(4);
    expect(taskTimeline(record, trimmed, [])).toEqual([
      { kind: 'message', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
      {
        kind: 'artifact',
        at: '2026-01-01T00:00:04.000Z',
        artifactId: 'a1',
        name: 'echo',
        parts: [{ text: 'Start' }, { text: 'ing' }],
      },
      {
        kind: 'status',
        at: '2026-01-01T00:00:05.000Z',
        state: 'TASK_STATE_CANCELED',
        parts: [{ text: 'Task canceled.' }],
      },
    ]);
  });

  it('shows a status that repeats its state with a new message, and the stored status when the stream is behind', () => {
    const progress = [
      submitted('2026-01-01T00:00:01.000Z'),
      status('2026-01-01T00:00:02.000Z', 'TASK_STATE_WORKING'),
      status('2026-01-01T00:00:03.000Z', 'TASK_STATE_WORKING', {
        messageId: 'p',
        role: 'ROLE_AGENT',
        parts: [{ text: 'halfway' }],
      }),
    ];
    const states = taskTimeline(record, progress, []).filter((entry) => entry.kind === 'status');
    expect(states.map((entry) => [entry.state, entry.parts])).toEqual([
      ['TASK_STATE_SUBMITTED', undefined],
      ['TASK_STATE_WORKING', undefined],
      ['TASK_STATE_WORKING', [{ text: 'halfway' }]],
      ['TASK_STATE_CANCELED', [{ text: 'Task canceled.' }]],
    ]);
  });
});
