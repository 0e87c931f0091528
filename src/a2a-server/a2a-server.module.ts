/** The A2A server: agent cards, JSON-RPC (v1.0 and v0.3), the HTTP+JSON binding and the seeds' REST forms. */
import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost } from '@nestjs/core';
import { AgentsModule } from '../agents/agents.module';
import type { SwitchboardConfig } from '../config/config.schema';
import { A2aEndpoints } from './a2a-endpoints.service';
import { AgentCardFactory } from './agent-card.factory';
import { a2aControllers } from './controllers';
import { JsonRpcTransport } from './json-rpc.transport';
import { RequestErrorFilter } from './request-error.filter';
import { seedRoutesController } from './seed-routes.controller';
import { TaskCanceller } from './task-canceller.service';

@Module({})
export class A2aServerModule {
  static forRoot(a2a: SwitchboardConfig['a2a']): DynamicModule {
    const jsonRpcPaths = new RegExp(`^${escape(a2a.listen_path)}(/agents/[^/]+)?/?$`);
    return {
      module: A2aServerModule,
      imports: [AgentsModule],
      controllers: [...a2aControllers(a2a), seedRoutesController(a2a.listen_path)],
      providers: [
        A2aEndpoints,
        AgentCardFactory,
        JsonRpcTransport,
        TaskCanceller,
        {
          provide: APP_FILTER,
          inject: [HttpAdapterHost],
          useFactory: (adapterHost: HttpAdapterHost) =>
            new RequestErrorFilter(adapterHost, (method, path) => method === 'POST' && jsonRpcPaths.test(path)),
        },
      ],
    };
  }
}

function escape(path: string): string {
  return path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
