import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore as A2aTaskStore } from '@a2a-js/sdk/server';

/**
 * The task store a turn's ResultManager works against: the task lives in memory for the turn, so
 * each event costs no database round trip; the recorder decides when the snapshot is written out.
 * The ResultManager loads, edits in place and saves back, so the buffer hands it the snapshot itself
 * rather than copies: whatever takes the snapshot further (store, event stream, webhooks) serializes
 * it as it takes it.
 */
export class SnapshotBuffer implements A2aTaskStore {
  constructor(private snapshot: Task | undefined) {}

  get current(): Task | undefined {
    return this.snapshot;
  }

  async load(taskId: string): Promise<Task | undefined> {
    return this.snapshot?.id === taskId ? this.snapshot : undefined;
  }

  async save(task: Task): Promise<void> {
    this.snapshot = task;
  }

  async list(_params: ListTasksRequest, _context: ServerCallContext): Promise<ListTasksResponse> {
    throw new Error('a turn works on one task; listing is not available here');
  }
}
