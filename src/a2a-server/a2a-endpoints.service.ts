import type { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Express } from 'express';
import type { SwitchboardConfig } from '../config/config.schema';
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

/** The transports in front of each hosted agent's handler, built once, at boot, where A2A is served over HTTP. */
@Injectable()
export class A2aEndpoints {
  private readonly endpoints = new Map<string, AgentEndpoint>();
  private readonly primaryName: string;
  readonly legacyCompat: boolean;

  constructor(handlers: AgentHandlers, config: ConfigService<SwitchboardConfig, true>) {
    const a2a = config.get('a2a', { infer: true });
    this.legacyCompat = a2a.legacy_compat;
    for (const served of handlers.all()) {
      const taskAgents = endpointTaskAgents(served.agent.config, a2a.external_agents);
      this.endpoints.set(served.agent.config.name, {
        ...served,
        jsonRpc: new JsonRpcTransportHandler(served.handler),
        legacyJsonRpc: new V03JsonRpcHandler(served.handler),
        rest: restApp(served.handler, taskAgents, this.legacyCompat),
        taskAgents,
      });
    }
    this.primaryName = handlers.primary().agent.config.name;
  }

  find(name: string): AgentEndpoint | undefined {
    return this.endpoints.get(name);
  }

  all(): AgentEndpoint[] {
    return [...this.endpoints.values()];
  }

  primary(): AgentEndpoint {
    return this.endpoints.get(this.primaryName)!;
  }
}
