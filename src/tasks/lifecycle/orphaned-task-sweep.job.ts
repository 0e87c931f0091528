import { Role, Task, TaskState } from '@a2a-js/sdk';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { agentTurnJobId } from '../../queue/agent-turn-job-id';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue.interface';
import { OnJob } from '../../queue/on-job.decorator';
import { JobName } from '../../queue/queue.constants';
import { TASK_STORE, TaskStore } from '../../task-store/task-store.interface';
import { callContextOf } from '../caller-scope';
import { TaskLifecycle } from './task-lifecycle.service';

/** States in which a task waits on a turn; input- and auth-required ones wait on their client. */
const TURN_STATES: readonly TaskState[] = [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING];
/** Tasks looked at per run; more wait for the next run. */
const SWEEP_BATCH = 500;
export const ORPHANED_TEXT = 'The task was left without a turn to run it (a store was unavailable, or its worker stopped); send the message again.';

/**
 * The periodic sweep of orphaned tasks: a task submitted or working that has not been written for
 * `tasks.orphan_sweep_secs` and whose turn is neither queued nor running (its enqueue was lost, its
 * job failed before it could record an end) is failed, with a status saying so, through the task
 * lifecycle (stream, webhooks). A turn is found by its job id, from the task's latest
 * user message.
 */
@Injectable()
export class OrphanedTaskSweepJob {
  private readonly logger = new Logger(OrphanedTaskSweepJob.name);
  private readonly idleMs: number;

  constructor(
    @Inject(TASK_STORE) private readonly store: TaskStore,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly lifecycle: TaskLifecycle,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.idleMs = config.get('tasks', { infer: true }).orphan_sweep_secs * 1000;
  }

  @OnJob(JobName.OrphanedTaskSweep)
  async run(): Promise<{ settled: number }> {
    let settled = 0;
    for (const { task, scope } of await this.store.findIdle({ states: TURN_STATES, idleMs: this.idleMs, limit: SWEEP_BATCH })) {
      if (await this.turnPending(task)) continue;
      await this.lifecycle.fail(task, callContextOf({ tenant: scope.tenant, userName: scope.owner, authenticated: true }), ORPHANED_TEXT);
      this.logger.warn({ taskId: task.id, state: task.status?.state }, 'orphaned task failed: its turn was neither queued nor running');
      settled++;
    }
    return { settled };
  }

  private async turnPending(task: Task): Promise<boolean> {
    const message = task.history.findLast((entry) => entry.role === Role.ROLE_USER);
    return message !== undefined && this.queue.isPending(JobName.AgentTurn, agentTurnJobId(task.id, message.messageId));
  }
}
