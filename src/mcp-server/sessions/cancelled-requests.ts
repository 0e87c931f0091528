import { Inject, Injectable } from '@nestjs/common';
import { CANCEL_SIGNALS, CancelSignals, CancelWatch } from '../../tasks';

/**
 * `notifications/cancelled` of 2025-era sessions, across replicas. Each POST is served by a server
 * of its own (the SDK's stateless fallback), so a cancel, which is a POST of its own and may land
 * on another replica, cannot reach the request's server: it goes through the shared cancel signals
 * instead, and the replica serving the request aborts it, which ends the call of whatever kind
 * (agent turn, upstream MCP tool, built-in tool) and, as the spec asks, sends no response. A cancel
 * that arrives before its request is remembered, and the request is then never served.
 */
@Injectable()
export class CancelledRequests {
  constructor(@Inject(CANCEL_SIGNALS) private readonly signals: CancelSignals) {}

  async cancel(sessionId: string, requestId: string): Promise<void> {
    await this.signals.request(signalKey(sessionId, requestId));
  }

  /** Aborts when any of the requests is canceled, also by a cancel that came first. */
  async watch(sessionId: string, requestIds: string[]): Promise<CancelWatch> {
    const watches = await Promise.all(
      requestIds.map((requestId) => this.signals.watch(signalKey(sessionId, requestId))),
    );
    if (watches.length === 1) return watches[0];
    return {
      signal: AbortSignal.any(watches.map((watch) => watch.signal)),
      dispose: () => watches.forEach((watch) => watch.dispose()),
    };
  }
}

function signalKey(sessionId: string, requestId: string): string {
  return `mcp-request:${sessionId}:${requestId}`;
}
