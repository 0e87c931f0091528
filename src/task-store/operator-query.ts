import type { Task } from '@a2a-js/sdk';
import { statusTime, type ListPosition } from './task-list';
import type { TaskScope } from './task-scope';

/** A task with what an operator sees of it besides the task itself: whose it is, which agent's, and when it was written. */
export interface TaskRecord {
  task: Task;
  scope: TaskScope;
  /** Unset for tasks stored before agents were recorded. */
  agent?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The operator's list of every owner's tasks, in list order (newest status first, as ListTasks). */
export interface OperatorTaskQuery {
  /** Wire name, `TASK_STATE_WORKING`. */
  state?: string;
  agent?: string;
  owner?: string;
  /** Only tasks created after this instant. */
  createdAfter?: Date;
  /** Only tasks created before this instant. */
  createdBefore?: Date;
  /** Only tasks after this position (the previous page's last). */
  after?: ListPosition;
  pageSize: number;
}

export interface OperatorTaskPage {
  records: TaskRecord[];
  /** Where the next page starts; unset on the last page. */
  next?: ListPosition;
}

/** The page from the records following the cursor, of which a store fetches one more than the page size to know whether another follows. */
export function operatorPage(following: TaskRecord[], pageSize: number): OperatorTaskPage {
  const records = following.slice(0, pageSize);
  const last = records.at(-1);
  return following.length > pageSize && last
    ? { records, next: { time: statusTime(last.task), id: last.task.id } }
    : { records };
}
