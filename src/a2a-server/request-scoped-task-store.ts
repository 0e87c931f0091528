import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore as A2aTaskStore } from '@a2a-js/sdk/server';
import type { TaskView } from '../tasks';
import { A2aCall } from './a2a-call';

/**
 * The request handler's view of the task store. Reads fall through to the durable store; writes stay
 * with the request that made them. The task lifecycle (TaskLifecycle) is the only writer of task
 * state: the handler replays the turn's events through its own ResultManager only to shape this request's
 * answer, and writing those replays back would apply every event twice. The request's own copy is
 * kept by reference, not cloned as the SDK's in-memory store does: only this request's handler and
 * ResultManager touch it, and it is dropped with the request. A task the request starts (`begin`)
 * is not read from the durable store: its turn's events, which begin with the task, are all the
 * answer needs, and what the turn stored meanwhile may be ahead of them.
 */
export class RequestScopedTaskStore implements A2aTaskStore {
  constructor(private readonly durable: TaskView) {}

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const own = A2aCall.of(context).tasks;
    return own.has(taskId) ? own.get(taskId) : this.durable.get(taskId, context);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    A2aCall.of(context).tasks.set(task.id, task);
  }

  /** The request in `context` starts task `taskId` (its id is new). */
  begin(taskId: string, context: ServerCallContext): void {
    const own = A2aCall.of(context).tasks;
    if (!own.has(taskId)) own.set(taskId, undefined);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.durable.list(params, context);
  }
}
