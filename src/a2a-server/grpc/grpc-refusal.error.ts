import { type status } from '@grpc/grpc-js';
import { A2AError } from '@a2a-js/sdk/errors';

/**
 * A gRPC call refused before it reached an agent (no or a wrong key, an agent the key may not
 * reach, none of that name, too many calls), or a refusal of the other bindings' that has no A2A
 * error of its own (the service unavailable). The SDK's gRPC service answers an A2A error that says
 * it is gRPC's with its `status`; any other non-A2A error would be UNKNOWN.
 */
export class GrpcRefusal extends A2AError {
  readonly transport = 'grpc';

  constructor(
    readonly status: status,
    message: string,
    override readonly reason: string,
    metadata?: Record<string, string>,
  ) {
    super({ message, metadata });
  }
}
