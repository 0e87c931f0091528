import { StreamResponse, TaskState, taskStateFromJSON } from '@a2a-js/sdk';
import { BadRequestException, ConflictException, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { isTerminal, stateLabel } from '../common/task-states';
import {
  callContextOf,
  OperatorTaskQuery,
  TASK_CHANGES,
  TaskActivity,
  TaskCanceller,
  TaskChange,
  TaskChanges,
  TaskRecord,
  TaskView,
} from '../tasks';
import { LiveIterable } from './live-iterable';
import { OperatorTaskDetail, OperatorTaskRow, taskDetail, taskRow } from './operator-task';
import { decodePageToken, encodePageToken } from './task-page-token';
import { taskTimeline } from './task-timeline';

const PAGE_SIZE = 50;

/** The list's filters as the query string gives them. */
export interface TaskListParams {
  state?: string;
  agent?: string;
  owner?: string;
  newerThan?: string;
  olderThan?: string;
  pageToken?: string;
}

/** What the task page's live stream sends: the task's own events as they are appended, and its activity as it is recorded. */
export type TaskTimelineItem =
  | { kind: 'snapshot'; detail: OperatorTaskDetail }
  | { kind: 'event'; event: unknown }
  | { kind: 'activity'; entry: OperatorTaskDetail['activity'][number] };

/** Every owner's tasks for operators: listed, read, cancelled and followed, through the same view and canceller as A2A. */
@Injectable()
export class OperatorTasks {
  private readonly logger = new Logger(OperatorTasks.name);

  constructor(
    private readonly view: TaskView,
    private readonly activity: TaskActivity,
    private readonly canceller: TaskCanceller,
    private readonly audit: AuditTrail,
    @Inject(TASK_CHANGES) private readonly changes: TaskChanges,
  ) {}

  async list(params: TaskListParams): Promise<{ tasks: OperatorTaskRow[]; nextPageToken?: string }> {
    const page = await this.view.listAcrossScopes(queryOf(params, Date.now()));
    return { tasks: page.records.map(taskRow), ...(page.next && { nextPageToken: encodePageToken(page.next) }) };
  }

  async detail(taskId: string): Promise<OperatorTaskDetail> {
    const record = await this.find(taskId);
    const [activity, kept] = await Promise.all([this.activity.list(taskId), this.view.events.kept(taskId)]);
    return taskDetail(record, activity, taskTimeline(record, kept, activity));
  }

  /** Cancels the task in its owner's scope, as A2A's CancelTask would, and audits it as `actor`'s; 409 once it has ended. */
  async cancel(taskId: string, actor: string): Promise<OperatorTaskDetail> {
    const record = await this.find(taskId);
    if (isTerminal(record.task))
      throw new ConflictException(
        `Task ${taskId} has already ended (${stateLabel(record.task.status!.state)}); only a running or waiting task can be canceled.`,
      );
    const { tenant, owner } = record.scope;
    await this.canceller.cancel(
      record.task,
      callContextOf({ tenant, userName: owner, authenticated: true, ...(record.agent && { agent: record.agent }) }),
    );
    const entry = { actor, action: 'task.cancel', target: `task:${taskId}` };
    await this.audit
      .record({ ...entry, detail: { tenant, owner, ...(record.agent && { agent: record.agent }) } })
      // The task is canceled by now: the operator is told so, and the entry that could not be stored is said loudly.
      .catch((error: Error) => this.logger.error({ ...entry, err: error.message }, 'audit entry not recorded'));
    return this.detail(taskId);
  }

  /** Every task change from now until `signal` aborts. */
  changesUntil(signal: AbortSignal): LiveIterable<TaskChange> {
    return new LiveIterable((listener) => this.changes.listen(listener), signal);
  }

  /**
   * The task as it stands, then its events and activity as they come, until `signal` aborts. The
   * activity is listened to and the stream's position taken before the snapshot is read, so nothing
   * recorded after the snapshot is missed (what is recorded meanwhile may come twice).
   */
  async timeline(taskId: string, signal: AbortSignal): Promise<AsyncIterable<TaskTimelineItem>> {
    await this.find(taskId);
    const live = new LiveIterable<TaskTimelineItem>(
      (listener) =>
        this.activity.listen(
          ({ taskId: recordedFor, entry }) => recordedFor === taskId && listener({ kind: 'activity', entry }),
        ),
      signal,
    );
    await live.ready;
    const from = await this.view.events.tail(taskId);
    live.push({ kind: 'snapshot', detail: await this.detail(taskId) });
    void this.followEvents(taskId, from, signal, live);
    return live;
  }

  private async followEvents(
    taskId: string,
    afterId: string,
    signal: AbortSignal,
    live: LiveIterable<TaskTimelineItem>,
  ): Promise<void> {
    try {
      for await (const { event } of this.view.events.read(taskId, { afterId, signal }))
        live.push({ kind: 'event', event: StreamResponse.toJSON(event) });
    } catch {
      // The stream was removed or lost: the timeline goes on with activity alone; a reload shows the task as stored.
    }
  }

  private async find(taskId: string): Promise<TaskRecord> {
    const record = await this.view.findAnywhere(taskId);
    if (!record) throw new NotFoundException(`No task ${taskId}.`);
    return record;
  }
}

function queryOf(params: TaskListParams, now: number): OperatorTaskQuery {
  const query: OperatorTaskQuery = { pageSize: PAGE_SIZE };
  if (params.state) query.state = stateNameOf(params.state);
  if (params.agent) query.agent = params.agent;
  if (params.owner) query.owner = params.owner;
  if (params.newerThan) query.createdAfter = new Date(now - seconds('newerThan', params.newerThan) * 1000);
  if (params.olderThan) query.createdBefore = new Date(now - seconds('olderThan', params.olderThan) * 1000);
  if (params.pageToken) query.after = decodePageToken(params.pageToken);
  return query;
}

/** `TASK_STATE_WORKING`, or as v0.3 and people write it (`working`, `input-required`). */
function stateNameOf(text: string): string {
  const wire = text.startsWith('TASK_STATE_') ? text : `TASK_STATE_${text.toUpperCase().replaceAll('-', '_')}`;
  const state = recognizedState(wire);
  if (state === TaskState.UNRECOGNIZED || state === TaskState.TASK_STATE_UNSPECIFIED) {
    throw new BadRequestException(`state must be a task state (TASK_STATE_WORKING, or working), not "${text}"`);
  }
  return wire;
}

function recognizedState(wire: string): TaskState {
  try {
    return taskStateFromJSON(wire);
  } catch {
    return TaskState.UNRECOGNIZED;
  }
}

function seconds(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0)
    throw new BadRequestException(`${name} must be a number of seconds (0 or more)`);
  return value;
}
