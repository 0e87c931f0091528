/** The A2A server: agent cards, JSON-RPC (v1.0 and v0.3), the HTTP+JSON binding and the seeds' REST forms. */
import { DynamicModule, Module } from '@nestjs/common';
import { A2aClientModule } from '../a2a-client/a2a-client.module';
import { DelegationToolProvider } from '../a2a-client/delegation/delegation-tool.provider';
import { AgentsModule } from '../agents/agents.module';
import type { SwitchboardConfig } from '../config/config.schema';
import { A2aEndpoints } from './a2a-endpoints.service';
import { AgentCardFactory } from './agent-card.factory';
import { a2aControllers } from './controllers';
import { JsonRpcTransport } from './json-rpc.transport';
import { seedRoutesController } from './seed-routes.controller';
import { ShutdownDrain } from './shutdown-drain.service';
import { TaskCanceller } from './task-canceller.service';
import { TaskEventBusManager } from './task-event-bus.manager';

@Module({})
export class A2aServerModule {
  static forRoot(a2a: SwitchboardConfig['a2a']): DynamicModule {
    return {
      module: A2aServerModule,
      imports: [AgentsModule, A2aClientModule],
      controllers: [...a2aControllers(a2a), seedRoutesController(a2a.listen_path)],
      providers: [
        A2aEndpoints,
        AgentCardFactory,
        JsonRpcTransport,
        TaskCanceller,
        TaskEventBusManager,
        ShutdownDrain,
        // Here, not in AgentsModule: a2a_send runs its tasks through A2aEndpoints' handlers.
        DelegationToolProvider,
      ],
      exports: [A2aEndpoints],
    };
  }
}

/** The JSON-RPC routes (`POST {listen_path}` and `POST {listen_path}/agents/:name`), whose errors are JSON-RPC errors. */
export function isJsonRpcRoute(a2a: SwitchboardConfig['a2a']): (method: string, path: string) => boolean {
  const escaped = a2a.listen_path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const paths = new RegExp(`^${escaped}(/agents/[^/]+)?/?$`);
  return (method, path) => a2a.enabled && method === 'POST' && paths.test(path);
}
