import { AgentCard } from '@a2a-js/sdk';
import { PushNotificationStore } from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AgentRegistry, HostedAgent } from '../agents/agent-registry.service';
import type { DelegateHandlers } from '../agents/tools/delegation/delegate-handlers.interface';
import { CANCEL_SIGNALS, CancelSignals, PUSH_CONFIGS, TaskCanceller, TaskLifecycle, TaskView } from '../tasks';
import type { SwitchboardConfig } from '../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../queue/job-queue.interface';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { AgentCardFactory } from './agent-card.factory';
import { configuredBaseUrl } from './base-url';
import { QueuedAgentExecutor } from './queued-agent-executor';
import { QueuedTurnWatch } from './queued-turn-watch';
import { RequestScopedTaskStore } from './request-scoped-task-store';
import { SwitchboardRequestHandler } from './switchboard-request-handler';
import { TaskEventBusManager } from './task-event-bus.manager';
import { messageLimitsOf } from './validation/message-limits';

/** One agent's A2A request handler (the SDK's, with what Switchboard adds) and the card it answers with. */
export interface AgentHandler {
  agent: HostedAgent;
  card: AgentCard;
  handler: SwitchboardRequestHandler;
}

/**
 * Builds each hosted agent's A2A request handler once, at boot; and one for each external agent's
 * delegate, which is not routed over HTTP: delegation (`a2a_send`, the MCP bridge) runs its tasks
 * through it. No transport: the A2A server's endpoints put theirs in front, and a worker, which
 * serves nothing, runs delegated tasks through these alone.
 */
@Injectable()
export class AgentHandlers implements DelegateHandlers {
  private readonly handlers = new Map<string, AgentHandler>();
  private readonly delegateHandlers = new Map<string, AgentHandler>();
  /** Where tool calls run as tasks are sent (McpTasks). */
  readonly toolCalls: AgentHandler;

  constructor(
    private readonly agents: AgentRegistry,
    cards: AgentCardFactory,
    canceller: TaskCanceller,
    lifecycle: TaskLifecycle,
    buses: TaskEventBusManager,
    config: ConfigService<SwitchboardConfig, true>,
    outboundPolicy: OutboundUrlPolicy,
    tasks: TaskView,
    @Inject(PUSH_CONFIGS) pushConfigs: PushNotificationStore,
    @Inject(JOB_QUEUE) queue: JobQueue,
    @Inject(CANCEL_SIGNALS) cancelSignals: CancelSignals,
  ) {
    const a2a = config.get('a2a', { infer: true });
    const messageLimits = messageLimitsOf(a2a);
    const baseUrl = configuredBaseUrl(config.get('server', { infer: true }));
    const taskStore = new RequestScopedTaskStore(tasks);
    const queuedTurns = new QueuedTurnWatch(queue, lifecycle);
    const handlerOf = (agent: HostedAgent): AgentHandler => {
      const card = cards.card(agent.config, baseUrl);
      const extendedCard = cards.extendedCard(agent.config, baseUrl);
      const executor = new QueuedAgentExecutor(
        agent.config.name,
        queue,
        cancelSignals,
        lifecycle,
        taskStore,
        queuedTurns,
      );
      const handler = new SwitchboardRequestHandler({
        card,
        extendedCard,
        taskStore,
        executor,
        blockingTimeoutMs: a2a.blocking_timeout_secs * 1000,
        buses,
        pushConfigs,
        canceller,
        messageLimits,
        outboundPolicy,
      });
      return { agent, card, handler };
    };
    for (const agent of agents.all()) this.handlers.set(agent.config.name, handlerOf(agent));
    for (const agent of agents.delegates()) this.delegateHandlers.set(agent.config.name, handlerOf(agent));
    this.toolCalls = handlerOf(agents.toolCalls);
  }

  find(name: string): AgentHandler | undefined {
    return this.handlers.get(name);
  }

  all(): AgentHandler[] {
    return [...this.handlers.values()];
  }

  /** An external agent's delegate's handler. */
  findDelegate(name: string): AgentHandler | undefined {
    return this.delegateHandlers.get(name);
  }

  delegates(): AgentHandler[] {
    return [...this.delegateHandlers.values()];
  }

  primary(): AgentHandler {
    return this.handlers.get(this.agents.defaultAgentName)!;
  }
}
