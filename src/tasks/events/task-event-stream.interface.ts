import type { StreamResponse } from '@a2a-js/sdk';
import type { TaskChange } from './task-change';

export interface PublishOptions {
  /** No more events will come: readers finish after draining, the stream expires later. */
  close?: boolean;
  /** The task's state was written with these events: announced on the task changes channel in the same step. */
  change?: TaskChange;
}

export const TASK_EVENT_STREAM = Symbol('TASK_EVENT_STREAM');

/** A closed stream stays readable this long, for late subscribers and reconnecting clients. */
export const CLOSED_STREAM_TTL_SECS = 3600;
/** A stream whose producer died before closing it goes away this long after its last event. */
export const UNCLOSED_STREAM_TTL_SECS = 24 * 3600;

/**
 * A read that cannot go on without possibly skipping events: the stream was removed (its task was
 * evicted) or lost (a Redis restart without persistence), or Redis stayed unreachable. The reader
 * should look at the task as stored before following it again.
 */
export class TaskEventStreamInterruptedError extends Error {
  constructor(
    readonly taskId: string,
    why: string,
    options?: { cause?: unknown },
  ) {
    super(`The event stream of task ${taskId} was interrupted: ${why}`, options);
    this.name = TaskEventStreamInterruptedError.name;
  }
}

export interface TaskEventStreamEntry {
  /** Position in the stream; pass it back as `afterId` to resume right after this entry. */
  id: string;
  event: StreamResponse;
}

/** An entry as the stream keeps it, with when it was appended. */
export interface KeptTaskEvent extends TaskEventStreamEntry {
  at: Date;
}

/**
 * Live, shared fan-out of a task's events: a worker publishes, any API replica reads from any
 * position. Hot data with a bounded length and lifetime; what lasts is the task's snapshot in the
 * TaskStore.
 */
export interface TaskEventStream {
  /**
   * Appends `events` in order, then the close marker when `close` is set, and announces `change`,
   * all in one step (on Redis, one round trip). Returns the positions of the events.
   */
  publish(taskId: string, events: StreamResponse[], options?: PublishOptions): Promise<string[]>;
  /**
   * Yields entries after `afterId` (from the start when omitted), then live ones as they are
   * published, until the stream is closed or `signal` aborts. A stream that never existed, or has
   * expired, is waited on like an empty one: check the task's state before following it. Throws
   * TaskEventStreamInterruptedError when it cannot go on without possibly skipping an entry.
   * `fresh` says the stream is known to hold nothing after `afterId` yet (a new task's): reading
   * then begins by waiting, without first looking.
   */
  read(
    taskId: string,
    options: { afterId?: string; signal?: AbortSignal; fresh?: boolean },
  ): AsyncIterable<TaskEventStreamEntry>;
  /** The position before any entry: reading after it yields a stream whole. */
  readonly start: string;
  /** Position of the newest entry: reading after it yields only what is published from now on. */
  tail(taskId: string): Promise<string>;
  /**
   * Undefined unless the stream ends with its close marker; then the event just before the marker
   * (what closed it: a turn's final state, a direct answer), if there is one.
   */
  closure(taskId: string): Promise<{ lastEvent?: StreamResponse } | undefined>;
  /** Position just before the newest `task` event, where the current turn began: reading after it replays the turn. */
  turnStart(taskId: string): Promise<string>;
  /**
   * Every event the stream still keeps (the last `maxLen`, until it expires), oldest first, across
   * its turns and closes, without waiting: what a task went through, for the operator's timeline.
   */
  kept(taskId: string): Promise<KeptTaskEvent[]>;
  /** Deletes the streams of tasks that are gone (evicted by retention); their readers are interrupted. */
  remove(taskIds: string[]): Promise<void>;
}
