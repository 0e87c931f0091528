/**
 * ListTasks semantics shared by every TaskStore, matching the SDK's in-memory store: newest status
 * first, ties by id descending; page tokens are base64 of `${status.timestamp}|${id}`.
 *
 * Two deliberate refinements: paging is keyset (a page starts right after the cursor's position even
 * if the cursor's task is gone, where the SDK returns an empty page), and timestamps are ordered as
 * instants at millisecond precision (the Postgres column's), ids by code unit (COLLATE "C"), so
 * every store orders identically.
 */
import { type ListTasksRequest, type ListTasksResponse, type Task, TaskState } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';

export const DEFAULT_PAGE_SIZE = 50;

/** Stands in for a missing or unparsable status timestamp: sorts after every real one, like "" in the SDK. */
export const NO_STATUS_TIMESTAMP = new Date('0001-01-01T00:00:00.000Z');

/** Position of a task in list order. */
export interface ListPosition {
  time: Date;
  id: string;
}

export interface ListFilter {
  contextId?: string;
  state?: TaskState;
  /** Only tasks whose status timestamp is strictly later. */
  statusAfter?: Date;
  /** Only tasks after this position (the page token's task). */
  after?: ListPosition;
}

export function statusTime(task: Task): Date {
  return parseStatusTimestamp(task.status?.timestamp ?? '');
}

export function listFilter(params: ListTasksRequest): ListFilter {
  const filter: ListFilter = {};
  if (params.contextId) filter.contextId = params.contextId;
  if (params.status !== undefined && params.status !== TaskState.TASK_STATE_UNSPECIFIED) filter.state = params.status;
  if (params.statusTimestampAfter) {
    const after = parseTimestamp(params.statusTimestampAfter);
    if (!after)
      throw new RequestMalformedError('statusTimestampAfter must be an ISO 8601 date between the years 1 and 9999');
    filter.statusAfter = after;
  }
  if (params.pageToken) filter.after = decodePageToken(params.pageToken);
  return filter;
}

export function pageSizeOf(params: ListTasksRequest): number {
  return params.pageSize ?? DEFAULT_PAGE_SIZE;
}

/**
 * Builds the response from the tasks following the cursor in list order, of which a store fetches
 * one more than the page size so that it knows whether another page follows.
 */
export function listResponse(following: Task[], totalSize: number, params: ListTasksRequest): ListTasksResponse {
  const pageSize = pageSizeOf(params);
  const page = following.slice(0, pageSize);
  const hasMore = following.length > pageSize && page.length > 0;
  return {
    tasks: page.map((task) => present(task, params)),
    nextPageToken: hasMore ? encodePageToken(page[page.length - 1]) : '',
    pageSize,
    totalSize,
  };
}

/** `historyLength`: undefined keeps all, 0 or less none, N the N most recent messages. */
export function applyHistoryLength(task: Task, historyLength: number | undefined): Task {
  if (historyLength !== undefined) task.history = historyLength <= 0 ? [] : task.history.slice(-historyLength);
  return task;
}

function present(task: Task, params: ListTasksRequest): Task {
  if (!params.includeArtifacts) task.artifacts = [];
  return applyHistoryLength(task, params.historyLength);
}

function encodePageToken(task: Task): string {
  return Buffer.from(`${task.status?.timestamp ?? ''}|${task.id}`).toString('base64');
}

function decodePageToken(token: string): ListPosition {
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const separator = decoded.indexOf('|');
  if (separator < 0) throw new RequestMalformedError('Invalid page token format.');
  return { time: parseStatusTimestamp(decoded.slice(0, separator)), id: decoded.slice(separator + 1) };
}

function parseStatusTimestamp(timestamp: string): Date {
  return parseTimestamp(timestamp) ?? NO_STATUS_TIMESTAMP;
}

/** Bounds that every store, Postgres's timestamptz included, can hold and compare. */
const EARLIEST = NO_STATUS_TIMESTAMP.getTime();
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** A date within the years 1 to 9999, or undefined. */
function parseTimestamp(text: string): Date | undefined {
  const time = Date.parse(text);
  return time >= EARLIEST && time <= LATEST ? new Date(time) : undefined;
}

/** List order: negative when `a` comes first (later status time, then greater id). */
export function compareListPositions(a: ListPosition, b: ListPosition): number {
  const byTime = b.time.getTime() - a.time.getTime();
  if (byTime !== 0) return byTime;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}
