import type { User } from '@a2a-js/sdk/server';
import type { ServerSurfaceCall } from '@grpc/grpc-js/build/src/server-call';
import type { Principal } from '../../security/principal';

/**
 * The caller of a gRPC call as the SDK's call context carries it (its `user`): the principal its key
 * names (none when the service runs without keys), and the call, to know when its client goes.
 */
export class GrpcCaller implements User {
  constructor(
    readonly principal: Principal | undefined,
    readonly call: ServerSurfaceCall,
  ) {}

  get isAuthenticated(): boolean {
    return this.principal !== undefined;
  }

  get userName(): string {
    return this.principal?.name ?? '';
  }
}
