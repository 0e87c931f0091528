import { Metadata, status } from '@grpc/grpc-js';
import type { ServerSurfaceCall } from '@grpc/grpc-js/build/src/server-call';
import { Injectable, Logger } from '@nestjs/common';
import { metricsOnlyRefusal } from '../../security/access-scope';
import { CallRateLimiter } from '../../security/call-rate-limiter';
import { CallerAuthenticator } from '../../security/caller-authenticator';
import { GrpcCaller } from './grpc-caller';
import { GrpcRefusal } from './grpc-refusal.error';

/**
 * What the HTTP guards do for a route, done for a gRPC call before it reaches an agent: the rate
 * limit (by key name or token subject, else by peer address, so that guessing keys is limited too)
 * and the bearer key or token in the `authorization` metadata.
 */
@Injectable()
export class GrpcCallGate {
  private readonly logger = new Logger(GrpcCallGate.name);

  constructor(
    private readonly callers: CallerAuthenticator,
    private readonly limiter: CallRateLimiter,
  ) {}

  /** The SDK's `userBuilder`: the caller, or a refusal in gRPC's terms. */
  readonly admit = async (call: ServerSurfaceCall): Promise<GrpcCaller> => {
    const verdict = await this.callers.authenticate({
      headers: { authorization: firstValue(call.metadata, 'authorization') },
    });
    const tracker =
      verdict.kind === 'valid' ? `${verdict.by}:${verdict.principal.name}` : `ip:${peerAddress(call.getPeer())}`;
    const waitSecs = await this.limiter.secondsToWait(tracker);
    if (waitSecs !== undefined) {
      throw new GrpcRefusal(status.RESOURCE_EXHAUSTED, `rate limit exceeded; retry in ${waitSecs} s`, 'RATE_LIMITED', {
        retryAfterSecs: String(waitSecs),
      });
    }
    if (!this.callers.required) return new GrpcCaller(undefined, call);
    if (verdict.kind === 'valid' && verdict.principal.scope.metricsOnly)
      throw new GrpcRefusal(status.PERMISSION_DENIED, metricsOnlyRefusal(verdict.principal.name), 'METRICS_ONLY');
    if (verdict.kind === 'valid') return new GrpcCaller(verdict.principal, call);
    if (verdict.kind === 'insufficient_scope')
      throw new GrpcRefusal(
        status.PERMISSION_DENIED,
        `the access token lacks the scope ${verdict.scope}`,
        'INSUFFICIENT_SCOPE',
      );
    if (verdict.kind === 'invalid') this.logger.warn({ peer: call.getPeer() }, 'rejected an invalid API key (gRPC)');
    const message =
      verdict.kind === 'invalid'
        ? this.callers.invalidMessage
        : 'missing bearer token: send the metadata "authorization: Bearer <api key>"';
    throw new GrpcRefusal(status.UNAUTHENTICATED, message, 'UNAUTHENTICATED');
  };
}

function firstValue(metadata: Metadata, key: string): string | undefined {
  const [value] = metadata.get(key);
  return value === undefined ? undefined : value.toString();
}

/** `ipv4:127.0.0.1:5555`, `ipv6:[::1]:5555` or `127.0.0.1:5555`: the address without scheme and port. */
function peerAddress(peer: string): string {
  const address = peer.replace(/^ipv[46]:/, '');
  return address.startsWith('[') ? address.slice(1, address.indexOf(']')) : address.replace(/:\d+$/, '');
}
