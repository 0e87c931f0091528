import { Injectable } from '@nestjs/common';
import {
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  ProtocolError,
  RequestId,
  Transport,
} from '@modelcontextprotocol/server';
import { isAnswerMessage } from '../json-rpc-shapes';
import { randomUUID } from 'node:crypto';
import type { UpstreamRequest } from '../../mcp-client/mcp-tool-source.interface';

/**
 * Requests to 2025-era HTTP callers in the middle of their calls (an upstream server's sampling or
 * elicitation, relayed). The request goes down the call's own response stream; the caller answers
 * in a POST of its own, which `answer` hands back here. The SDK's per-request servers cannot do
 * this themselves: each serves one POST and knows nothing of the session's client. The answer must
 * reach the replica that holds the call.
 */
@Injectable()
export class CallerRequests {
  private readonly pending = new Map<string, { resolve: (result: object) => void; reject: (error: Error) => void }>();

  async ask(
    sessionId: string,
    transport: Transport,
    call: RequestId,
    request: UpstreamRequest,
    signal: AbortSignal,
  ): Promise<object> {
    signal.throwIfAborted();
    const id = `switchboard-${randomUUID()}`;
    const key = keyOf(sessionId, id);
    const answered = new Promise<object>((resolve, reject) => this.pending.set(key, { resolve, reject }));
    // An abort while the request is still being sent rejects this before anyone awaits it.
    answered.catch(() => undefined);
    const abort = () =>
      this.pending.get(key)?.reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
    signal.addEventListener('abort', abort, { once: true });
    try {
      await transport.send(
        { jsonrpc: '2.0', id, method: request.method, params: request.params },
        { relatedRequestId: call },
      );
      return await answered;
    } finally {
      signal.removeEventListener('abort', abort);
      this.pending.delete(key);
    }
  }

  /** Takes the session's POSTed answer to one of these requests; false for any other message. */
  answer(sessionId: string, message: unknown): boolean {
    // Looked up by shape first: every POST of a session comes here, and few are answers.
    const waiting = isAnswerMessage(message) ? this.pending.get(keyOf(sessionId, String(message.id))) : undefined;
    if (!waiting || (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message))) return false;
    if (isJSONRPCResultResponse(message)) waiting.resolve(message.result);
    else waiting.reject(new ProtocolError(message.error.code, message.error.message, message.error.data));
    return true;
  }
}

function keyOf(sessionId: string, id: string): string {
  return `${sessionId}\n${id}`;
}
