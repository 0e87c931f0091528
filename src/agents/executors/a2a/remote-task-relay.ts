import { type Artifact, type Message, type StreamResponse, type Task, TaskState, type TaskStatus } from '@a2a-js/sdk';
import type { ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { type TaskActivity, TurnPublisher } from '../../../tasks';
import { REMOTE_TASK_METADATA_KEY, remoteTaskLinkOf, type RemoteTaskLink } from './remote-task-link';

/**
 * Replays a remote task's events as the local task's: ids rewritten to the local task, the remote
 * task's id recorded in the local task's metadata with the first event, and snapshots (a resumed
 * stream, a poll) turned into only what changed since the last event relayed.
 */
export class RemoteTaskRelay {
  private readonly publish: TurnPublisher;
  private started: boolean;
  /** The remote task's id, once an event named it. */
  remoteTaskId?: string;
  private lastStatus?: string;
  /** Each artifact's parts as relayed so far, to tell a snapshot's new content from what was already sent. */
  private readonly artifacts = new Map<string, string>();

  /** `resumed`: the local task already carries the link and its events (a worker picks the turn up again). */
  constructor(
    bus: ExecutionEventBus,
    private readonly context: RequestContext,
    private readonly agent: string,
    /** Where the delegation goes on the local task's timeline once the remote task is named. */
    private readonly activity: TaskActivity,
    resumed?: Task,
  ) {
    this.publish = new TurnPublisher(bus, context);
    this.started = resumed !== undefined;
    if (resumed) {
      this.remoteTaskId = remoteTaskLinkOf(resumed)?.task_id;
      this.lastStatus = statusKey(resumed.status);
      for (const artifact of resumed.artifacts) this.artifacts.set(artifact.artifactId, JSON.stringify(artifact.parts));
    }
  }

  relay(event: StreamResponse): void {
    const payload = event.payload;
    switch (payload?.$case) {
      case 'message':
        return this.relayMessage(payload.value);
      case 'task':
        this.start(payload.value.id, payload.value.contextId);
        // Artifacts first: a final state ends the local turn, and nothing after it is recorded.
        for (const artifact of payload.value.artifacts) this.relayArtifact(artifact, false, true);
        return this.relayStatus(payload.value.status);
      case 'statusUpdate':
        this.start(payload.value.taskId, payload.value.contextId);
        return this.relayStatus(payload.value.status);
      case 'artifactUpdate':
        this.start(payload.value.taskId, payload.value.contextId);
        if (payload.value.artifact)
          this.relayArtifact(payload.value.artifact, payload.value.append, payload.value.lastChunk);
        return;
    }
  }

  private start(taskId: string, contextId: string): void {
    this.remoteTaskId ??= taskId;
    if (this.started) return;
    this.started = true;
    const link: RemoteTaskLink = { agent: this.agent, task_id: taskId, context_id: contextId };
    this.publish.task(this.context, { [REMOTE_TASK_METADATA_KEY]: link });
    void this.activity.record(this.context.taskId, {
      at: new Date().toISOString(),
      kind: 'delegation',
      summary: `delegated to ${this.agent}: remote task ${taskId}`,
      detail: { agent: this.agent, remoteTaskId: taskId, remoteContextId: contextId },
    });
  }

  /** A direct answer: the turn's answer too, or, once a task exists, the message that completes it. */
  private relayMessage(message: Message): void {
    if (!this.started) return this.publish.message(message.parts);
    this.relayStatus({ state: TaskState.TASK_STATE_COMPLETED, message, timestamp: new Date().toISOString() });
  }

  private relayStatus(status: TaskStatus | undefined): void {
    if (!status) return;
    const key = statusKey(status);
    if (key === this.lastStatus) return;
    this.lastStatus = key;
    this.publish.statusWith(status.state, status.message?.parts);
  }

  private relayArtifact(artifact: Artifact, append: boolean, lastChunk: boolean): void {
    const relayed = this.artifacts.get(artifact.artifactId);
    const parts = append && relayed ? [...JSON.parse(relayed), ...artifact.parts] : artifact.parts;
    const key = JSON.stringify(parts);
    if (!append && key === relayed) return;
    this.artifacts.set(artifact.artifactId, key);
    this.publish.artifact({
      artifactId: artifact.artifactId,
      name: artifact.name,
      parts: artifact.parts,
      append: append && relayed !== undefined,
      lastChunk,
    });
  }
}

function statusKey(status: TaskStatus | undefined): string {
  return JSON.stringify([status?.state, status?.message?.messageId ?? '', status?.message?.parts ?? []]);
}
