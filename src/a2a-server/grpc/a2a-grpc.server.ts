import { defaultServerCallContextBuilder, type ServerCallContextBuilder } from '@a2a-js/sdk/server';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import { LegacyA2AService, legacyGrpcService } from '@a2a-js/sdk/compat/v0_3/server/grpc';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { readFileSync } from 'node:fs';
import type { SwitchboardConfig } from '../../config/config.schema';
import { A2aEndpoints } from '../a2a-endpoints.service';
import { AgentRoutingHandler } from './agent-routing.handler';
import { GrpcCallGate } from './grpc-call-gate';

/** The tenant names the agent (AgentRoutingHandler), so it scopes no task. */
const withoutTenant: ServerCallContextBuilder = (options) =>
  defaultServerCallContextBuilder({ ...options, tenant: undefined });

/**
 * A2A over gRPC on `a2a.grpc.port`, beside HTTP: the SDK's gRPC services (v1.0, and v0.3 when
 * `a2a.legacy_compat` is on) in front of the same agent handlers, stores, buses and executor as
 * the other bindings. On shutdown it takes no new call; the calls in flight end as the HTTP
 * server's drain ends them (ShutdownDrain), and whatever is left is cut when the app has closed.
 */
@Injectable()
export class A2aGrpcServer implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(A2aGrpcServer.name);
  private readonly server = new Server();
  private readonly grpc: SwitchboardConfig['a2a']['grpc'];
  private readonly host: string;
  private readonly legacyCompat: boolean;

  constructor(
    private readonly endpoints: A2aEndpoints,
    private readonly gate: GrpcCallGate,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    const a2a = config.get('a2a', { infer: true });
    this.grpc = a2a.grpc;
    this.legacyCompat = a2a.legacy_compat;
    this.host = config.get('server', { infer: true }).host;
  }

  async onApplicationBootstrap(): Promise<void> {
    const requestHandler = new AgentRoutingHandler(this.endpoints);
    const options = { requestHandler, userBuilder: this.gate.admit, contextBuilder: withoutTenant };
    this.server.addService(A2AService, grpcService(options));
    if (this.legacyCompat) this.server.addService(LegacyA2AService, legacyGrpcService(options));
    const address = `${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.grpc.port}`;
    await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(address, this.credentials(), (error, port) => (error ? reject(error) : resolve(port))),
    );
    this.logger.log({ address, tls: this.grpc.tls !== undefined }, 'A2A over gRPC is listening');
  }

  beforeApplicationShutdown(): void {
    this.server.tryShutdown(() => undefined);
  }

  onApplicationShutdown(): void {
    this.server.forceShutdown();
  }

  private credentials(): ServerCredentials {
    const { tls } = this.grpc;
    if (!tls) return ServerCredentials.createInsecure();
    return ServerCredentials.createSsl(null, [
      { cert_chain: readFileSync(tls.cert_file), private_key: readFileSync(tls.key_file) },
    ]);
  }
}
