import { Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TaskLifecycle } from './task-lifecycle.service';
import type { SwitchboardConfig } from '../../config/config.schema';
import { CANCEL_SIGNALS, CancelSignals } from '../cancel/cancel-signals.interface';
import { TASK_EVENT_STREAM, TaskEventStream } from '../events/task-event-stream.interface';
import { TERMINAL_TASK_STATES } from '../../common/task-states';

const RUNNING_STATES: readonly TaskState[] = [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING];

/**
 * Cancels a task from any replica. A running turn is told through the cancel signals and given
 * `cancel_grace_ms` to stop and publish `canceled` itself; a task with no turn running (waiting for
 * input), or whose turn does not stop in time (its worker is gone), is marked canceled from here,
 * through the task lifecycle.
 */
@Injectable()
export class TaskCanceller {
  private readonly graceMs: number;

  constructor(
    @Inject(CANCEL_SIGNALS) private readonly signals: CancelSignals,
    @Inject(TASK_EVENT_STREAM) private readonly stream: TaskEventStream,
    private readonly lifecycle: TaskLifecycle,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.graceMs = config.get('a2a', { infer: true }).cancel_grace_ms;
  }

  async cancel(task: Task, context: ServerCallContext): Promise<void> {
    const from = await this.stream.tail(task.id);
    await this.signals.request(task.id);
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (RUNNING_STATES.includes(state) && (await this.turnEnds(task.id, from))) return;
    await this.lifecycle.cancel(task, context);
  }

  /** True when a terminal event follows `from` within the grace period. */
  private async turnEnds(taskId: string, from: string): Promise<boolean> {
    const signal = AbortSignal.timeout(this.graceMs);
    for await (const { event } of this.stream.read(taskId, { afterId: from, signal })) {
      const state = event.payload?.$case === 'statusUpdate' ? event.payload.value.status?.state : undefined;
      if (state !== undefined && TERMINAL_TASK_STATES.includes(state)) return true;
    }
    return false;
  }
}
