import { ExecutionEventBusManager, ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskEventStream } from '../task-store/task-event-stream.interface';
import { TaskEventBus } from './task-event-bus';

/** Calls the SDK makes without a context share this key. */
const NO_CONTEXT = new ServerCallContext();

/**
 * One bus per request and task, each reading the task's shared stream from where that request
 * needs: a send reads what comes after the stream's current end (its turn is enqueued only once
 * that position is known), a resubscribe replays the current turn from its start. Buses end by
 * themselves when the turn ends, so this manager owns their settling.
 */
export class TaskEventBusManager implements ExecutionEventBusManager {
  private readonly buses = new WeakMap<ServerCallContext, Map<string, TaskEventBus>>();
  private readonly open = new Set<TaskEventBus>();

  constructor(private readonly stream: TaskEventStream) {}

  createOrGetByTaskId(taskId: string, context: ServerCallContext = NO_CONTEXT): TaskEventBus {
    return this.find(taskId, context) ?? this.create(taskId, context, this.stream.tail(taskId));
  }

  getByTaskId(taskId: string, context: ServerCallContext = NO_CONTEXT): TaskEventBus {
    return this.find(taskId, context) ?? this.create(taskId, context, this.stream.turnStart(taskId));
  }

  cleanupByTaskId(taskId: string, context: ServerCallContext = NO_CONTEXT): void {
    this.find(taskId, context)?.stop();
  }

  settleByTaskId(): boolean {
    return true;
  }

  /** Ends every stream this replica serves (at shutdown): clients resubscribe elsewhere, turns go on. */
  finishAll(): void {
    for (const bus of this.open) {
      bus.finished();
      bus.stop();
    }
  }

  private find(taskId: string, context: ServerCallContext): TaskEventBus | undefined {
    return this.buses.get(context)?.get(taskId);
  }

  private create(taskId: string, context: ServerCallContext, position: Promise<string>): TaskEventBus {
    let byTask = this.buses.get(context);
    if (!byTask) this.buses.set(context, (byTask = new Map()));
    const bus = new TaskEventBus(this.stream, taskId, position, () => {
      if (byTask.get(taskId) === bus) byTask.delete(taskId);
      this.open.delete(bus);
    });
    byTask.set(taskId, bus);
    this.open.add(bus);
    return bus;
  }
}
