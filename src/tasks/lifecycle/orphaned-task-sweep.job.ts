import { Role, Task, TaskState } from '@a2a-js/sdk';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { agentTurnJobId } from '../../queue/agent-turn-job-id';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue.interface';
import { OnJob } from '../../queue/on-job.decorator';
import { JobName, OrphanedTaskSweepPayload } from '../../queue/queue.constants';
import { REDIS_COMMAND_TIMEOUT_MS } from '../../redis/redis.service';
import { TASK_STORE, TaskStore } from '../../task-store/task-store.interface';
import { callContextOf } from '../caller-scope';
import { TaskLifecycle } from './task-lifecycle.service';

/** States in which a task waits on a turn; input- and auth-required ones wait on their client. */
const TURN_STATES: readonly TaskState[] = [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING];
/** Tasks looked at per run; more wait for the next run. */
const SWEEP_BATCH = 500;
export const ORPHANED_TEXT =
  'The task was left without a turn to run it (a store was unavailable, or its worker stopped); send the message again.';

/**
 * The periodic sweep of orphaned tasks: a task submitted or working that has not been written for
 * `tasks.orphan_sweep_secs` and whose turn is neither queued nor running (its enqueue was lost, its
 * job failed before it could record an end) is failed, with a status saying so, through the task
 * lifecycle (stream, webhooks). A turn is found by its job id, from the task's latest
 * user message.
 *
 * When the queue finds its data lost, every task written before is swept at once, however recently
 * (a send that answered at once would otherwise stay `submitted` until the next periodic run): once,
 * whichever processes noticed (the job's id is the queue's new epoch), and only after a queued
 * write's timeout, by which a send that was queueing its turn as the data went has either queued it
 * or failed its task itself.
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
    queue.onDataLost((epoch) => void this.sweepAfterLoss(epoch));
  }

  @OnJob(JobName.OrphanedTaskSweep)
  async run({ writtenBefore }: OrphanedTaskSweepPayload = {}): Promise<{ settled: number }> {
    const idle = writtenBefore === undefined ? { idleMs: this.idleMs } : { idleMs: 0, now: new Date(writtenBefore) };
    let settled = 0;
    for (const { task, scope } of await this.store.findIdle({ states: TURN_STATES, ...idle, limit: SWEEP_BATCH })) {
      if (await this.turnPending(task)) continue;
      await this.lifecycle.fail(
        task,
        callContextOf({ tenant: scope.tenant, userName: scope.owner, authenticated: true }),
        ORPHANED_TEXT,
      );
      this.logger.warn(
        { taskId: task.id, state: task.status?.state },
        'orphaned task failed: its turn was neither queued nor running',
      );
      settled++;
    }
    return { settled };
  }

  private async sweepAfterLoss(epoch: string): Promise<void> {
    const sweep = { writtenBefore: Date.now() };
    await this.queue
      .enqueue(JobName.OrphanedTaskSweep, sweep, {
        jobId: `orphans-after-loss-${epoch}`,
        delayMs: REDIS_COMMAND_TIMEOUT_MS,
      })
      .catch((error: Error) => {
        this.logger.warn(
          { err: error.message },
          'could not queue the sweep of tasks whose turns the queue lost; the periodic sweep settles them',
        );
      });
  }

  private async turnPending(task: Task): Promise<boolean> {
    const message = task.history.findLast((entry) => entry.role === Role.ROLE_USER);
    return message !== undefined && this.queue.isPending(JobName.AgentTurn, agentTurnJobId(task.id, message.messageId));
  }
}
