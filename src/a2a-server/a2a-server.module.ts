/** The A2A server: agent cards, JSON-RPC (v1.0 and v0.3), the HTTP+JSON binding and the seeds' REST forms. */
import { DynamicModule, Module } from '@nestjs/common';
import type { SwitchboardConfig } from '../config/config.schema';
import { A2aEndpoints } from './a2a-endpoints.service';
import { A2aHandlersModule } from './a2a-handlers.module';
import { a2aControllers } from './controllers';
import { JsonRpcTransport } from './json-rpc.transport';
import { ShutdownDrain } from './shutdown-drain.service';

@Module({})
export class A2aServerModule {
  static forRoot(a2a: SwitchboardConfig['a2a']): DynamicModule {
    return {
      module: A2aServerModule,
      imports: [A2aHandlersModule],
      controllers: a2aControllers(a2a),
      providers: [A2aEndpoints, JsonRpcTransport, ShutdownDrain],
    };
  }
}
