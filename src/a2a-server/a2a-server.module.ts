/** The A2A server: agent cards, JSON-RPC (v1.0 and v0.3), the HTTP+JSON binding, the seeds' REST forms and, on a port of its own, gRPC. */
import { DynamicModule, Module } from '@nestjs/common';
import type { SwitchboardConfig } from '../config/config.schema';
import { A2aEndpoints } from './a2a-endpoints.service';
import { A2aMediaType } from './a2a-media-type';
import { A2aHandlersModule } from './a2a-handlers.module';
import { a2aControllers } from './controllers';
import { JsonRpcTransport } from './json-rpc.transport';
import { A2aGrpcServer } from './grpc/a2a-grpc.server';
import { GrpcCallGate } from './grpc/grpc-call-gate';
import { ShutdownDrain } from './shutdown-drain.service';

@Module({})
export class A2aServerModule {
  /** `listens`: this process serves the network (an API replica), so gRPC opens its port when configured; `switchboard mcp` over stdio does not. */
  static forRoot(a2a: SwitchboardConfig['a2a'], listens: boolean): DynamicModule {
    const grpc = listens && a2a.grpc.port !== undefined ? [GrpcCallGate, A2aGrpcServer] : [];
    return {
      module: A2aServerModule,
      imports: [A2aHandlersModule],
      controllers: a2aControllers(a2a),
      providers: [A2aEndpoints, JsonRpcTransport, ShutdownDrain, A2aMediaType, ...grpc],
    };
  }
}
