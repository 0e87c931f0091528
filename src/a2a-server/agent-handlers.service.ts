import { AgentCard } from '@a2a-js/sdk';
import { PushNotificationStore } from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AgentRegistry, HostedAgent } from '../agents/agent-registry.service';
import type { DelegateHandlers } from '../agents/tools/delegation/delegate-handlers.interface';
import { CANCEL_SIGNALS, CancelSignals, PUSH_CONFIGS, TaskCanceller, TaskLifecycle, TaskView } from '../tasks';
import type { SwitchboardConfig } from '../config/config.schema';
import { LiveCatalog } from '../config/live-catalog';
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
 * Each hosted agent's A2A request handler; and one for each external agent's delegate, which is not
 * routed over HTTP: delegation (`a2a_send`, the MCP bridge) runs its tasks through it. No transport:
 * the A2A server's endpoints put theirs in front, and a worker, which serves nothing, runs delegated
 * tasks through these alone. Follows the registry: an agent it keeps keeps its handler, a new or
 * changed one gets a new handler (and its card), and the layers above follow through `onChange`.
 */
@Injectable()
export class AgentHandlers implements DelegateHandlers {
  private handlers = new Map<string, AgentHandler>();
  private delegateHandlers = new Map<string, AgentHandler>();
  private readonly listeners = new Set<() => void>();
  /** The default agent's card alone lists the v0.3 gRPC interface: a new default needs new cards. */
  private defaultName: string;
  /** Cards name the bearer scheme while callers authenticate: the catalog's first key or its last one removed needs new cards. */
  private authRequired: boolean;
  private readonly handlerOf: (agent: HostedAgent) => AgentHandler;
  /** Where tool calls run as tasks are sent (McpTasks). */
  readonly toolCalls: AgentHandler;

  constructor(
    private readonly agents: AgentRegistry,
    private readonly cards: AgentCardFactory,
    catalog: LiveCatalog,
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
    this.handlerOf = (agent: HostedAgent): AgentHandler => {
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
    this.defaultName = agents.defaultAgentName;
    this.authRequired = cards.authRequired;
    this.follow();
    this.toolCalls = this.handlerOf(agents.toolCalls);
    agents.onChange(() => this.changed());
    catalog.onChange(() => {
      if (cards.authRequired !== this.authRequired) this.changed();
    });
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
    return this.handlers.get(this.defaultName)!;
  }

  /**
   * Calls `listener` after the handlers changed: the registry's agents did, or the cards must now
   * say otherwise whether callers authenticate. Returns the unsubscribe function.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.follow();
    for (const listener of this.listeners) listener();
  }

  /** Handlers for the registry's agents; new ones for every agent when whether callers authenticate changed. */
  private follow(): void {
    const previousDefault = this.defaultName;
    const newCards = this.cards.authRequired !== this.authRequired;
    this.defaultName = this.agents.defaultAgentName;
    this.authRequired = this.cards.authRequired;
    const sameCard = (name: string) => !newCards && (name === this.defaultName) === (name === previousDefault);
    this.handlers = this.handlersFor(this.agents.all(), this.handlers, sameCard);
    this.delegateHandlers = this.handlersFor(this.agents.delegates(), this.delegateHandlers, () => !newCards);
  }

  /** A handler for each agent: the one it had while it is the same agent (and its card would be the same). */
  private handlersFor(
    agents: HostedAgent[],
    handlers: ReadonlyMap<string, AgentHandler>,
    sameCard: (name: string) => boolean,
  ): Map<string, AgentHandler> {
    return new Map(
      agents.map((agent) => {
        const { name } = agent.config;
        const kept = handlers.get(name);
        return [name, kept?.agent === agent && sameCard(name) ? kept : this.handlerOf(agent)];
      }),
    );
  }
}
