import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import type { OperatorTaskPage, OperatorTaskQuery, TaskRecord } from '../task-store/operator-query';
import { TASK_STORE, TaskStore } from '../task-store/task-store.interface';
import { TASK_EVENT_STREAM, TaskEventStream } from './events/task-event-stream.interface';

export type { OperatorTaskPage, OperatorTaskQuery, TaskRecord } from '../task-store/operator-query';
export type { ListPosition } from '../task-store/task-list';

/** A task's live events as a reader follows them: its event stream without the publishing side. */
export type TaskEventFeed = Pick<TaskEventStream, 'read' | 'start' | 'tail' | 'closure' | 'turnStart' | 'kept'>;

/**
 * Tasks as code outside src/tasks sees them: read, listed, counted and followed, never written.
 * Every change of a task's state goes through TaskLifecycle, the one writer; this view is how the
 * protocol faces and the agent runtime read what it wrote.
 */
@Injectable()
export class TaskView {
  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    @Inject(TASK_EVENT_STREAM) private readonly stream: TaskEventStream,
  ) {}

  /** Whether `get` is served in this process (the in-memory store), with no round trip to a server. */
  get readsInProcess(): boolean {
    return this.store.inProcess;
  }

  /** The task as stored, in the caller's scope (`context`); undefined when it does not exist there. */
  get(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.store.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.store.list(params, context);
  }

  /** Number of tasks last written at or after `since`, by state. */
  countByStateSince(since: Date): Promise<Record<string, number>> {
    return this.store.countByStateSince(since);
  }

  /** Every owner's tasks, for operators: filtered, newest first, paged. */
  listAcrossScopes(query: OperatorTaskQuery): Promise<OperatorTaskPage> {
    return this.store.listAcrossScopes(query);
  }

  /** A task by id whatever its owner, for operators, with its owner, agent and times. */
  findAnywhere(taskId: string): Promise<TaskRecord | undefined> {
    return this.store.findAnywhere(taskId);
  }

  /** Number of tasks in each state across all tenants, keyed by the wire name (`TASK_STATE_WORKING`). */
  countByState(): Promise<Record<string, number>> {
    return this.store.countByState();
  }

  /** The tasks' live events, shared by every replica. */
  get events(): TaskEventFeed {
    return this.stream;
  }
}
