import {
  type Artifact,
  type Message,
  Part,
  roleToJSON,
  type Task,
  type TaskStatus,
  taskStateToJSON,
} from '@a2a-js/sdk';
import type { KeptTaskEvent, TaskActivityEntry, TaskRecord } from '../tasks';

/** A message's or artifact's parts as A2A v1.0 JSON (`{text}`, `{data}`, `{url}`, ...). */
type PartsJson = unknown[];

/**
 * One entry of a task's timeline. `at` (ISO 8601) is when it happened; only entries the task's event
 * stream no longer keeps (it expired or was trimmed) come without one, first.
 */
export type TaskTimelineEntry =
  | { kind: 'status'; at: string; state: string; parts?: PartsJson }
  | { kind: 'message'; at?: string; role: string; parts: PartsJson }
  | { kind: 'artifact'; at?: string; artifactId: string; name: string; parts: PartsJson }
  | TaskActivityEntry;

type EventEntry = Exclude<TaskTimelineEntry, TaskActivityEntry>;
type TimedEntry = EventEntry & { at: string };
type ArtifactEntry = Extract<TimedEntry, { kind: 'artifact' }>;

/**
 * What a task went through, in the order it happened: each status change, message and artifact
 * from the events its stream keeps (`kept`), the activity recorded for it merged in by time, and
 * whatever of the stored task the stream no longer holds.
 */
export function taskTimeline(
  { task, updatedAt }: Pick<TaskRecord, 'task' | 'updatedAt'>,
  kept: KeptTaskEvent[],
  activity: TaskActivityEntry[],
): TaskTimelineEntry[] {
  const events = new EventTimeline();
  for (const entry of kept) events.add(entry);
  const { earlier, timed } = events.against(task, updatedAt);
  return [...earlier, ...mergeByTime(timed, activity)];
}

/** Entries from a stream's events, in stream order; a status that repeats the last one without news is left out. */
class EventTimeline {
  private readonly entries: TimedEntry[] = [];
  private readonly shownMessages = new Set<string>();
  private readonly artifacts = new Map<string, ArtifactEntry>();
  /** Artifacts whose first kept chunk appends to chunks the stream no longer keeps. */
  private readonly cutArtifacts = new Set<ArtifactEntry>();
  private lastStatus?: TaskStatus;

  add({ event, at }: KeptTaskEvent): void {
    const payload = event.payload;
    switch (payload?.$case) {
      case 'task': {
        // The message that began this turn is last; those before it belong to earlier turns.
        const started = payload.value.history.at(-1);
        if (started) this.message(started, payload.value.status?.timestamp || at.toISOString());
        if (payload.value.status) this.status(payload.value.status, at);
        return;
      }
      case 'statusUpdate':
        if (payload.value.status) this.status(payload.value.status, at);
        return;
      case 'artifactUpdate':
        if (payload.value.artifact) this.artifact(payload.value.artifact, payload.value.append, at.toISOString());
        return;
      case 'message':
        this.message(payload.value, at.toISOString());
    }
  }

  /**
   * The entries completed from the stored `task`: its messages and artifacts that the kept events
   * do not show come `earlier`, without a time; a cut artifact gets its whole parts; its status comes
   * last (at its timestamp, else when it was stored) unless the kept events end with it (the
   * stream expired, or is behind the store).
   */
  against(task: Task, storedAt: Date): { earlier: EventEntry[]; timed: TimedEntry[] } {
    for (const entry of this.cutArtifacts)
      entry.parts = partsJson(task.artifacts.find(({ artifactId }) => artifactId === entry.artifactId)?.parts ?? []);
    const latestStatusMessage = task.status?.message?.messageId;
    const messages = task.history
      .filter(({ messageId }) => !this.shownMessages.has(messageId) && messageId !== latestStatusMessage)
      .map((message): EventEntry => ({
        kind: 'message',
        role: roleToJSON(message.role),
        parts: partsJson(message.parts),
      }));
    const artifacts = task.artifacts
      .filter(({ artifactId }) => !this.artifacts.has(artifactId))
      .map((artifact): EventEntry => ({
        kind: 'artifact',
        artifactId: artifact.artifactId,
        name: artifact.name,
        parts: partsJson(artifact.parts),
      }));
    const { status } = task;
    const timed =
      !status || sameStatus(this.lastStatus, status)
        ? this.entries
        : [...this.entries, statusEntry(status, status.timestamp || storedAt.toISOString())];
    return { earlier: [...messages, ...artifacts], timed };
  }

  private message(message: Message, at: string): void {
    if (this.shownMessages.has(message.messageId)) return;
    this.shownMessages.add(message.messageId);
    this.entries.push({ kind: 'message', at, role: roleToJSON(message.role), parts: partsJson(message.parts) });
  }

  private status(status: TaskStatus, appendedAt: Date): void {
    const last = this.lastStatus;
    if (sameStatus(last, status) || (last?.state === status.state && !status.message)) return;
    this.lastStatus = status;
    // A status message also lands in the task's history: it is shown here, with its status.
    if (status.message) this.shownMessages.add(status.message.messageId);
    this.entries.push(statusEntry(status, status.timestamp || appendedAt.toISOString()));
  }

  private artifact(artifact: Artifact, append: boolean, at: string): void {
    const shown = this.artifacts.get(artifact.artifactId);
    if (append && shown) {
      shown.parts.push(...partsJson(artifact.parts));
      if (artifact.name) shown.name = artifact.name;
      return;
    }
    const entry: ArtifactEntry = {
      kind: 'artifact',
      at,
      artifactId: artifact.artifactId,
      name: artifact.name,
      parts: partsJson(artifact.parts),
    };
    if (append) this.cutArtifacts.add(entry);
    this.artifacts.set(artifact.artifactId, entry);
    this.entries.push(entry);
  }
}

function statusEntry(status: TaskStatus, at: string): TimedEntry {
  return {
    kind: 'status',
    at,
    state: taskStateToJSON(status.state),
    ...(status.message && { parts: partsJson(status.message.parts) }),
  };
}

/** The same write of a status: a turn's status carries its own timestamp. */
function sameStatus(a: TaskStatus | undefined, b: TaskStatus): boolean {
  return a?.state === b.state && a.timestamp === b.timestamp && a.message?.messageId === b.message?.messageId;
}

function partsJson(parts: Part[]): PartsJson {
  return parts.map((part) => Part.toJSON(part));
}

/** `events` kept in their order, each activity entry placed before the first event that happened after it. */
function mergeByTime(events: TimedEntry[], activity: TaskActivityEntry[]): TaskTimelineEntry[] {
  const pending = [...activity].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const merged: TaskTimelineEntry[] = [];
  for (const event of events) {
    const time = Date.parse(event.at);
    while (pending.length > 0 && Date.parse(pending[0].at) < time) merged.push(pending.shift()!);
    merged.push(event);
  }
  return [...merged, ...pending];
}
