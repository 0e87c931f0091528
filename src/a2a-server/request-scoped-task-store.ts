import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore as A2aTaskStore } from '@a2a-js/sdk/server';
import type { TaskStore } from '../task-store/task-store.interface';

/**
 * The request handler's view of the task store. Reads fall through to the durable store; writes stay
 * with the request that made them. The task lifecycle (TaskLifecycle) is the only writer of task
 * state: the handler replays the turn's events through its own ResultManager only to shape this request's
 * answer, and writing those replays back would apply every event twice. The request's own copy is
 * kept by reference, not cloned as the SDK's in-memory store does: only this request's handler and
 * ResultManager touch it, and it is dropped with the request.
 */
export class RequestScopedTaskStore implements A2aTaskStore {
  private readonly written = new WeakMap<ServerCallContext, Map<string, Task>>();

  constructor(private readonly durable: TaskStore) {}

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const own = this.written.get(context)?.get(taskId);
    return own ?? this.durable.load(taskId, context);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    let own = this.written.get(context);
    if (!own) this.written.set(context, (own = new Map()));
    own.set(task.id, task);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.durable.list(params, context);
  }
}
