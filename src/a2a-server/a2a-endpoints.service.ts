import type { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Express } from 'express';
import type { SwitchboardConfig } from '../config/config.schema';
import { LiveCatalog } from '../config/live-catalog';
import { AgentHandler, AgentHandlers } from './agent-handlers.service';
import { endpointTaskAgents } from './endpoint-task-agents';
import { restApp } from './rest-app';
import { V03JsonRpcHandler } from './v03-json-rpc.handler';

/** Everything that serves one agent over A2A: the SDK's handler and its transports. */
export interface AgentEndpoint extends AgentHandler {
  jsonRpc: JsonRpcTransportHandler;
  /** v0.3 JSON-RPC: for requests without `A2A-Version` when legacy compat is on, and the seed routes. */
  legacyJsonRpc: LegacyJsonRpcTransportHandler;
  /** The SDK's HTTP+JSON binding (v1.0, and v0.3's `/v1/...` when legacy compat is on), an express app. */
  rest: Express;
  /** The agents whose tasks its calls read (endpointTaskAgents). */
  taskAgents: readonly string[];
}

/**
 * The transports in front of each hosted agent's handler, where A2A is served over HTTP: built once
 * per handler (and again when the agents its calls read change), and followed as the handlers change,
 * so a request finds its agent's endpoint by name.
 */
@Injectable()
export class A2aEndpoints {
  private endpoints = new Map<string, AgentEndpoint>();
  readonly legacyCompat: boolean;

  constructor(
    private readonly handlers: AgentHandlers,
    private readonly catalog: LiveCatalog,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.legacyCompat = config.get('a2a', { infer: true }).legacy_compat;
    this.follow();
    handlers.onChange(() => this.follow());
  }

  find(name: string): AgentEndpoint | undefined {
    return this.endpoints.get(name);
  }

  all(): AgentEndpoint[] {
    return [...this.endpoints.values()];
  }

  primary(): AgentEndpoint {
    return this.endpoints.get(this.handlers.primary().agent.config.name)!;
  }

  private follow(): void {
    const externals = this.catalog.current.external_agents;
    this.endpoints = new Map(
      this.handlers.all().map((served) => {
        const taskAgents = endpointTaskAgents(served.agent.config, externals);
        const kept = this.endpoints.get(served.agent.config.name);
        const same = kept?.handler === served.handler && kept.taskAgents.join() === taskAgents.join();
        return [served.agent.config.name, same ? kept : this.endpointOf(served, taskAgents)];
      }),
    );
  }

  private endpointOf(served: AgentHandler, taskAgents: string[]): AgentEndpoint {
    return {
      ...served,
      jsonRpc: new JsonRpcTransportHandler(served.handler),
      legacyJsonRpc: new V03JsonRpcHandler(served.handler),
      rest: restApp(served.handler, taskAgents, this.legacyCompat),
      taskAgents,
    };
  }
}
