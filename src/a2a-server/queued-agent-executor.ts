import { SendMessageRequest } from '@a2a-js/sdk';
import { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { callerScopeOf } from '../agents/turns/caller-scope';
import type { JobQueue } from '../queue/job-queue.interface';
import { JobName } from '../queue/queue.constants';
import type { CancelSignals } from '../task-store/cancel-signals.interface';
import { TaskEventBus } from './task-event-bus';

/**
 * The SDK's executor seat on the API side: a turn is not run here but handed to the queue, and its
 * events come back through the task's event stream. It enqueues only once the bus knows where in the
 * stream the turn begins, so no event can slip past it.
 */
export class QueuedAgentExecutor implements AgentExecutor {
  constructor(
    private readonly agentName: string,
    private readonly queue: JobQueue,
    private readonly cancelSignals: CancelSignals,
  ) {}

  async execute(requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> {
    if (bus instanceof TaskEventBus) await bus.position;
    await this.queue.enqueue(JobName.AgentTurn, {
      agent: this.agentName,
      taskId: requestContext.taskId,
      contextId: requestContext.contextId,
      request: SendMessageRequest.toJSON(requestContext.request),
      caller: callerScopeOf(requestContext.context),
    });
  }

  /** Asks the running turn to stop; it publishes `canceled` itself. (Requests go through TaskCanceller.) */
  async cancelTask(taskId: string): Promise<void> {
    await this.cancelSignals.request(taskId);
  }
}
