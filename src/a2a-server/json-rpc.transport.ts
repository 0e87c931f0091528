import { A2A_ERROR_CODE, RequestMalformedError } from '@a2a-js/sdk/errors';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, validateVersion } from '@a2a-js/sdk/server';
import { LEGACY_METHOD_TASKS_RESUBSCRIBE } from '@a2a-js/sdk/compat/v0_3';
import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MetricsService } from '../health/metrics.service';
import { noteForAccessLog } from '../logging/access-log';
import { A2aEndpoints, AgentEndpoint } from './a2a-endpoints.service';
import { callContextFor, isLegacyRequest } from './call-context';
import { clientFacingError, retryAfterSecsOf } from './client-facing-error';
import { normalizeSeedRequest } from './seed-compat';
import { isAsyncIterable, streamSse } from './sse';
import { envelopeError, JsonRpcError, requestId } from '../common/json-rpc-envelope';
import { jsonRpcParamsProblem, unknownMethodError } from './validation/json-rpc-params.validator';

interface JsonRpcResponse {
  error?: JsonRpcError;
}

/**
 * JSON-RPC on Fastify through the SDK's transport handlers: v1.0, or v0.3 for requests without an
 * `A2A-Version` header (the seeds' dialect included). Errors are JSON-RPC errors with HTTP 200, as
 * the SDK's own server does; only an internal error is a 500. Streams are SSE.
 */
@Injectable()
export class JsonRpcTransport {
  private readonly logger = new Logger(JsonRpcTransport.name);

  constructor(
    private readonly endpoints: A2aEndpoints,
    private readonly metrics: MetricsService,
  ) {}

  async handle(endpoint: AgentEndpoint, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const legacy = isLegacyRequest(request.headers, this.endpoints.legacyCompat);
    const body = legacy ? normalizeSeedRequest(request.body) : request.body;
    const id = requestId(body);
    const toError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    const errorResponse = (error: unknown) => ({ jsonrpc: '2.0', id, error: toError(error) });
    const streamError = (error: unknown) => ({ jsonrpc: '2.0', id, error: clientFacingError(toError(error), this.logger, 'JSON-RPC stream failed', error) });
    noteForAccessLog(request, { agent: endpoint.agent.config.name });
    try {
      const invalid = envelopeError(body) ?? unknownMethodError(legacy, (body as { method: string }).method);
      if (invalid) return void (await reply.code(200).send({ jsonrpc: '2.0', id, error: invalid }));
      const { method, params } = body as { method: string; params?: unknown };
      const context = callContextFor(request, request.headers, legacy);
      endpoint.handler.releaseWhenClientLeaves(context, reply.raw);
      validateVersion(context.requestedVersion, endpoint.card, 'JSONRPC');
      const problem = jsonRpcParamsProblem(legacy, method, params);
      if (problem) throw new RequestMalformedError(problem);
      const result = await (legacy ? endpoint.legacyJsonRpc : endpoint.jsonRpc).handle(body as Record<string, unknown>, context);
      if (!isAsyncIterable(result)) {
        noteForAccessLog(request, { answer: result });
        await this.answer(reply, result as JsonRpcResponse, endpoint.handler.failureOf(context));
        return;
      }
      // v0.3 resubscribe answers errors inside the stream; everything else before it starts.
      const inStream = legacy && method === LEGACY_METHOD_TASKS_RESUBSCRIBE;
      const iterator = result[Symbol.asyncIterator]();
      const first = inStream ? undefined : await iterator.next();
      noteForAccessLog(request, { answer: first?.value });
      this.metrics.streamOpened('a2a', reply.raw);
      await streamSse(reply, { [Symbol.asyncIterator]: () => iterator }, streamError, first);
    } catch (error) {
      if (!reply.sent) await this.answer(reply, errorResponse(error), error);
    }
  }

  /**
   * Sends a response: HTTP 200, 503 with `Retry-After` for a store outage, or 500 for another
   * internal error, which the client sees only as such.
   */
  private async answer(reply: FastifyReply, response: JsonRpcResponse, cause?: unknown): Promise<void> {
    if (!response.error) return void (await reply.code(200).send(response));
    const error = clientFacingError(response.error, this.logger, 'JSON-RPC request failed', cause);
    const retryAfterSecs = retryAfterSecsOf(cause);
    if (retryAfterSecs !== undefined) reply.header('retry-after', String(retryAfterSecs));
    const status = retryAfterSecs !== undefined ? 503 : error.code === A2A_ERROR_CODE.INTERNAL_ERROR ? 500 : 200;
    await reply.code(status).send({ ...response, error });
  }
}
