/** The A2A server: agent cards, JSON-RPC (v1.0 and v0.3), the HTTP+JSON binding and the seeds' REST forms. */
import { DynamicModule, Module } from '@nestjs/common';
import type { SwitchboardConfig } from '../config/config.schema';
import { A2aEndpoints } from './a2a-endpoints.service';
import { A2aHandlersModule } from './a2a-handlers.module';
import { a2aControllers } from './controllers';
import { JsonRpcTransport } from './json-rpc.transport';
import { seedRoutesController } from './seed-routes.controller';
import { ShutdownDrain } from './shutdown-drain.service';

@Module({})
export class A2aServerModule {
  static forRoot(a2a: SwitchboardConfig['a2a']): DynamicModule {
    return {
      module: A2aServerModule,
      imports: [A2aHandlersModule],
      controllers: [...a2aControllers(a2a), seedRoutesController(a2a.listen_path)],
      providers: [A2aEndpoints, JsonRpcTransport, ShutdownDrain],
    };
  }
}

/** The JSON-RPC routes (`POST {listen_path}` and `POST {listen_path}/agents/:name`), whose errors are JSON-RPC errors. */
export function isJsonRpcRoute(a2a: SwitchboardConfig['a2a']): (method: string, path: string) => boolean {
  const escaped = a2a.listen_path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const paths = new RegExp(`^${escaped}(/agents/[^/]+)?/?$`);
  return (method, path) => a2a.enabled && method === 'POST' && paths.test(path);
}
