import { SendMessageRequest } from '@a2a-js/sdk';
import { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { TurnPublisher } from '../agents/turn-publisher';
import { callerScopeOf } from '../agents/turns/caller-scope';
import { TurnRecorderFactory } from '../agents/turns/turn-recorder.factory';
import type { JobQueue } from '../queue/job-queue.interface';
import { JobName } from '../queue/queue.constants';
import type { CancelSignals } from '../task-store/cancel-signals.interface';
import { TaskEventBus } from './task-event-bus';

/**
 * The SDK's executor seat on the API side: a turn is not run here but handed to the queue, and its
 * events come back through the task's event stream. It enqueues only once the bus knows where in the
 * stream the turn begins, so no event can slip past it. A non-blocking send must answer with the
 * task at once, whether or not a worker is up: its task is recorded as submitted here first.
 */
export class QueuedAgentExecutor implements AgentExecutor {
  constructor(
    private readonly agentName: string,
    private readonly queue: JobQueue,
    private readonly cancelSignals: CancelSignals,
    private readonly recorders: TurnRecorderFactory,
  ) {}

  async execute(requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> {
    if (bus instanceof TaskEventBus) await bus.position;
    const announced = requestContext.request.configuration?.returnImmediately === true;
    if (announced) await this.announce(requestContext);
    await this.queue.enqueue(JobName.AgentTurn, {
      announced,
      agent: this.agentName,
      taskId: requestContext.taskId,
      contextId: requestContext.contextId,
      request: SendMessageRequest.toJSON(withoutWebhook(requestContext.request)),
      caller: callerScopeOf(requestContext.context),
    });
  }

  private async announce(requestContext: RequestContext): Promise<void> {
    const recorder = this.recorders.create(requestContext.taskId, requestContext.context, requestContext.task);
    new TurnPublisher(recorder, requestContext).task(requestContext);
    await recorder.settled();
  }

  /** Asks the running turn to stop; it publishes `canceled` itself. (Requests go through TaskCanceller.) */
  async cancelTask(taskId: string): Promise<void> {
    await this.cancelSignals.request(taskId);
  }
}

/**
 * The request as the turn needs it. Its webhook (URL, token, credentials) is already in the push
 * config store, where deliveries read it; a job is kept a day when it fails, and carries no secret.
 */
function withoutWebhook(request: SendMessageRequest): SendMessageRequest {
  if (!request.configuration?.taskPushNotificationConfig) return request;
  return { ...request, configuration: { ...request.configuration, taskPushNotificationConfig: undefined } };
}
