import { type RequestContext } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { agentTurnJobId } from '../queue/agent-turn-job-id';
import type { JobQueue } from '../queue/job-queue.interface';
import { JobName } from '../queue/queue.constants';
import type { TaskLifecycle } from '../tasks';
import type { TaskEventBus } from './task-event-bus';

/** The status of a task whose queued turn was lost before it began (Redis lost its data). */
export const TURN_LOST_TEXT =
  'The message was lost from the queue before the agent took it (the queue lost its data); send it again.';

interface WaitingSend {
  requestContext: RequestContext;
  agent: string;
}

/**
 * The sends of this process that wait on a queued turn, until the turn begins: a job that vanished
 * would leave its send waiting for events that never come, and its task unrecorded, out of the
 * orphaned-task sweep's sight. Their jobs are looked up as soon as the queue finds its data lost
 * (JobQueue.onDataLost, within seconds), and every `lostTurnCheckMs` while any send waits (a loss
 * the queue could not see: a failover to a replica behind). A lost turn's task is recorded failed,
 * which ends its send's bus with an answer. One timer for the process, not one per send.
 */
export class QueuedTurnWatch {
  private readonly logger = new Logger(QueuedTurnWatch.name);
  /** By the turn's job id. */
  private readonly waiting = new Map<string, WaitingSend>();
  private timer?: NodeJS.Timeout;
  private checking = false;

  constructor(
    private readonly queue: JobQueue,
    private readonly lifecycle: TaskLifecycle,
  ) {
    queue.onDataLost(() => void this.checkAll());
  }

  /** Watches the turn of a send whose bus waits on it, until the bus reads the turn's first event or stops. */
  watch(requestContext: RequestContext, agent: string, bus: TaskEventBus): void {
    const jobId = agentTurnJobId(requestContext.taskId, requestContext.userMessage.messageId);
    this.waiting.set(jobId, { requestContext, agent });
    this.timer ??= setInterval(() => void this.checkAll(), this.lifecycle.lostTurnCheckMs).unref();
    // Forgotten as soon as the turn begins: kept longer, every send would stay in memory under load.
    bus.whenTurnBegun(() => this.forget(jobId));
  }

  private forget(jobId: string): void {
    this.waiting.delete(jobId);
    if (this.waiting.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async checkAll(): Promise<void> {
    if (this.checking || !this.queue.isReachable(JobName.AgentTurn)) return;
    this.checking = true;
    try {
      for (const [jobId, send] of this.waiting) {
        await this.failIfLost(jobId, send).catch((error: Error) => {
          this.logger.warn(
            { taskId: send.requestContext.taskId, err: error.message },
            'could not check whether a queued turn was lost',
          );
        });
      }
    } finally {
      this.checking = false;
    }
  }

  /** Fails the send's task if its turn is neither queued nor running (nor ended). */
  private async failIfLost(jobId: string, { requestContext, agent }: WaitingSend): Promise<void> {
    if (await this.queue.isPending(JobName.AgentTurn, jobId)) return;
    // Its turn began meanwhile (its bus forgot it): the turn's own events answer the send.
    if (!this.waiting.has(jobId)) return;
    this.logger.warn({ taskId: requestContext.taskId, agent }, 'queued turn lost before it began: its task fails');
    this.forget(jobId);
    await this.lifecycle.failUnrun(requestContext, TURN_LOST_TEXT);
  }
}
