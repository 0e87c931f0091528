import type { SwitchboardConfig } from '../../config/config.schema';

/**
 * The address gRPC clients dial (`host:port`), as agent cards list it: `a2a.grpc.public_address`,
 * else the host the card was fetched from (`baseUrl`) with the gRPC port. Undefined when gRPC is off.
 */
export function grpcAddress(grpc: SwitchboardConfig['a2a']['grpc'], baseUrl: string): string | undefined {
  if (grpc.port === undefined) return undefined;
  return grpc.public_address ?? `${new URL(baseUrl).hostname}:${grpc.port}`;
}
