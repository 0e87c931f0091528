import { A2A_ERROR_CODE, RequestMalformedError } from '@a2a-js/sdk/errors';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler, validateVersion } from '@a2a-js/sdk/server';
import { LEGACY_METHOD_TASKS_RESUBSCRIBE } from '@a2a-js/sdk/compat/v0_3';
import { Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { A2aEndpoints, AgentEndpoint } from './a2a-endpoints.service';
import { callContextFor, isLegacyRequest } from './call-context';
import { normalizeSeedRequest } from './seed-compat';
import { sendParamsProblem } from './send-params.validator';
import { streamSse } from './sse';

type JsonRpcId = string | number | null;

/**
 * JSON-RPC on Fastify through the SDK's transport handlers: v1.0, or v0.3 for requests without an
 * `A2A-Version` header (the seeds' dialect included). Errors are JSON-RPC errors with HTTP 200, as
 * the SDK's own server does; only an internal error is a 500. Streams are SSE.
 */
@Injectable()
export class JsonRpcTransport {
  private readonly logger = new Logger(JsonRpcTransport.name);

  constructor(private readonly endpoints: A2aEndpoints) {}

  async handle(endpoint: AgentEndpoint, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const legacy = isLegacyRequest(request.headers, this.endpoints.legacyCompat);
    const body = legacy ? normalizeSeedRequest(request.body) : request.body;
    const id = requestId(body);
    const toError = legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError : JsonRpcTransportHandler.mapToJSONRPCError;
    const errorResponse = (error: unknown) => ({ jsonrpc: '2.0', id, error: toError(error) });
    try {
      const context = callContextFor(request, request.headers, legacy);
      validateVersion(context.requestedVersion, endpoint.card, 'JSONRPC');
      if (!legacy) checkSendParams(body);
      const result = await (legacy ? endpoint.legacyJsonRpc : endpoint.jsonRpc).handle(body as Record<string, unknown>, context);
      if (!isAsyncIterable(result)) {
        await reply.code(200).send(result);
        return;
      }
      // v0.3 resubscribe answers errors inside the stream; everything else before it starts.
      const inStream = legacy && (body as { method?: string }).method === LEGACY_METHOD_TASKS_RESUBSCRIBE;
      const iterator = result[Symbol.asyncIterator]();
      const first = inStream ? undefined : await iterator.next();
      await streamSse(reply, { [Symbol.asyncIterator]: () => iterator }, errorResponse, first);
    } catch (error) {
      const response = errorResponse(error);
      const internal = response.error.code === A2A_ERROR_CODE.INTERNAL_ERROR;
      if (internal) this.logger.error({ err: error }, 'JSON-RPC request failed');
      if (!reply.sent) await reply.code(internal ? 500 : 200).send(response);
    }
  }
}

const SEND_METHODS = ['SendMessage', 'SendStreamingMessage'];

function checkSendParams(body: unknown): void {
  const { method, params } = (body ?? {}) as { method?: unknown; params?: unknown };
  if (typeof method !== 'string' || !SEND_METHODS.includes(method)) return;
  const problem = sendParamsProblem(params, 'params');
  if (problem) throw new RequestMalformedError(problem);
}

function requestId(body: unknown): JsonRpcId {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}
