import { AgentCard } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, PushNotificationStore } from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Express } from 'express';
import { AgentRegistry, HostedAgent } from '../agents/agent-registry.service';
import { TaskLifecycle } from '../agents/turns/task-lifecycle.service';
import type { SwitchboardConfig } from '../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../queue/job-queue.interface';
import { OutboundUrlPolicy } from '../security/outbound-url-policy';
import { CANCEL_SIGNALS, CancelSignals } from '../task-store/cancel-signals.interface';
import { PUSH_CONFIG_STORE } from '../task-store/push-config-store.token';
import { TASK_STORE, TaskStore } from '../task-store/task-store.interface';
import { AgentCardFactory } from './agent-card.factory';
import { QueuedAgentExecutor } from './queued-agent-executor';
import { RequestScopedTaskStore } from './request-scoped-task-store';
import { SendAcceptance } from './send-acceptance';
import { restApp } from './rest-app';
import { SwitchboardRequestHandler } from './switchboard-request-handler';
import { TaskCanceller } from './task-canceller.service';
import { TaskEventBusManager } from './task-event-bus.manager';
import { messageLimitsOf } from './validation/message-limits';

/** Everything that serves one agent over A2A: the SDK's handler and its transports. */
export interface AgentEndpoint {
  agent: HostedAgent;
  card: AgentCard;
  handler: SwitchboardRequestHandler;
  jsonRpc: JsonRpcTransportHandler;
  /** v0.3 JSON-RPC: for requests without `A2A-Version` when legacy compat is on, and the seed routes. */
  legacyJsonRpc: LegacyJsonRpcTransportHandler;
  /** The SDK's HTTP+JSON binding (v1.0, and v0.3's `/v1/...` when legacy compat is on), an express app. */
  rest: Express;
}

/**
 * Builds each hosted agent's A2A endpoint once, at boot; and one for each external agent's delegate,
 * which is not routed over HTTP: delegation (`a2a_send`, the MCP bridge) runs its tasks through it.
 */
@Injectable()
export class A2aEndpoints {
  private readonly endpoints = new Map<string, AgentEndpoint>();
  private readonly delegateEndpoints = new Map<string, AgentEndpoint>();
  readonly legacyCompat: boolean;

  constructor(
    private readonly agents: AgentRegistry,
    cards: AgentCardFactory,
    canceller: TaskCanceller,
    lifecycle: TaskLifecycle,
    buses: TaskEventBusManager,
    config: ConfigService<SwitchboardConfig, true>,
    outboundPolicy: OutboundUrlPolicy,
    @Inject(TASK_STORE) store: TaskStore,
    @Inject(PUSH_CONFIG_STORE) pushConfigs: PushNotificationStore,
    @Inject(JOB_QUEUE) queue: JobQueue,
    @Inject(CANCEL_SIGNALS) cancelSignals: CancelSignals,
  ) {
    const a2a = config.get('a2a', { infer: true });
    this.legacyCompat = a2a.legacy_compat;
    const messageLimits = messageLimitsOf(a2a);
    const server = config.get('server', { infer: true });
    const baseUrl = server.public_url ?? `http://${server.host}:${server.port}`;
    const taskStore = new RequestScopedTaskStore(store);
    const endpointOf = (agent: HostedAgent): AgentEndpoint => {
      const card = cards.card(agent.config, baseUrl);
      const extendedCard = cards.extendedCard(agent.config, baseUrl);
      const acceptance = new SendAcceptance();
      const executor = new QueuedAgentExecutor(agent.config.name, queue, cancelSignals, lifecycle, acceptance, taskStore);
      const handler = new SwitchboardRequestHandler({
        card,
        extendedCard,
        taskStore,
        executor,
        blockingTimeoutMs: a2a.blocking_timeout_secs * 1000,
        buses,
        pushConfigs,
        canceller,
        acceptance,
        messageLimits,
        outboundPolicy,
      });
      return {
        agent,
        card,
        handler,
        jsonRpc: new JsonRpcTransportHandler(handler),
        legacyJsonRpc: new LegacyJsonRpcTransportHandler(handler),
        rest: restApp(handler, this.legacyCompat),
      };
    };
    for (const agent of agents.all()) this.endpoints.set(agent.config.name, endpointOf(agent));
    for (const agent of agents.delegates()) this.delegateEndpoints.set(agent.config.name, endpointOf(agent));
  }

  find(name: string): AgentEndpoint | undefined {
    return this.endpoints.get(name);
  }

  all(): AgentEndpoint[] {
    return [...this.endpoints.values()];
  }

  /** An external agent's delegate endpoint. */
  findDelegate(name: string): AgentEndpoint | undefined {
    return this.delegateEndpoints.get(name);
  }

  delegates(): AgentEndpoint[] {
    return [...this.delegateEndpoints.values()];
  }

  primary(): AgentEndpoint {
    return this.endpoints.get(this.agents.defaultAgentName)!;
  }

}
