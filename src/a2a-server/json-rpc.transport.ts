import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { validateVersion } from '@a2a-js/sdk/server';
import { LEGACY_METHOD_TASKS_RESUBSCRIBE } from '@a2a-js/sdk/compat/v0_3';
import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MetricsService } from '../metrics/metrics.service';
import { noteForAccessLog } from '../logging/access-log';
import { A2aCall } from './a2a-call';
import { A2aEndpoints, AgentEndpoint } from './a2a-endpoints.service';
import { atEndpoint, callContextFor, isLegacyRequest } from './call-context';
import { jsonRpcStreamError } from './json-rpc-exception.filter';
import { JsonRpcErrorResponse, JsonRpcFailure } from './json-rpc-failure';
import { isSeedCall, normalizeSeedRequest, withSeedAnswer } from './seed-compat';
import { isAsyncIterable, streamSse } from './sse';
import { envelopeError, JsonRpcId, requestId } from '../common/json-rpc-envelope';
import { jsonRpcParamsProblem, unknownMethodError } from './validation/json-rpc-params.validator';

/**
 * JSON-RPC on Fastify through the SDK's transport handlers: v1.0, or v0.3 for requests without an
 * `A2A-Version` header (the seeds' dialect included). Streams are SSE. A failed call is thrown as a
 * JsonRpcFailure, which the route's exception filter answers (JsonRpcExceptionFilter).
 */
@Injectable()
export class JsonRpcTransport {
  constructor(
    private readonly endpoints: A2aEndpoints,
    private readonly metrics: MetricsService,
  ) {}

  async handle(endpoint: AgentEndpoint, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const legacy = isLegacyRequest(request.headers, this.endpoints.legacyCompat);
    const seed = legacy && isSeedCall(request.body);
    const body = legacy ? normalizeSeedRequest(request.body) : request.body;
    const id = requestId(body);
    noteForAccessLog(request, { agent: endpoint.agent.config.name });
    try {
      await this.respond(endpoint, request, reply, body, id, legacy, seed);
    } catch (error) {
      throw error instanceof JsonRpcFailure ? error : JsonRpcFailure.thrown(error, id, legacy);
    }
  }

  private async respond(
    endpoint: AgentEndpoint,
    request: FastifyRequest,
    reply: FastifyReply,
    body: unknown,
    id: JsonRpcId,
    legacy: boolean,
    seed: boolean,
  ): Promise<void> {
    const invalid = envelopeError(body) ?? unknownMethodError(legacy, (body as { method: string }).method);
    if (invalid) throw JsonRpcFailure.answered({ jsonrpc: '2.0', id, error: invalid });
    const { method, params } = body as { method: string; params?: unknown };
    const context = atEndpoint(callContextFor(request, request.headers, legacy), endpoint.taskAgents);
    endpoint.handler.releaseWhenClientLeaves(context, reply.raw);
    validateVersion(context.requestedVersion, endpoint.card, 'JSONRPC');
    const problem = jsonRpcParamsProblem(legacy, method, params);
    if (problem) throw new RequestMalformedError(problem);
    const result = await (legacy ? endpoint.legacyJsonRpc : endpoint.jsonRpc).handle(
      body as Record<string, unknown>,
      context,
    );
    if (!isAsyncIterable(result)) {
      noteForAccessLog(request, { answer: result });
      const response = result as { error?: unknown };
      if (response.error)
        throw JsonRpcFailure.answered(response as JsonRpcErrorResponse, A2aCall.of(context).failure());
      return void (await reply
        .code(200)
        .send(seed ? { ...response, result: withSeedAnswer((response as { result?: unknown }).result) } : result));
    }
    // v0.3 resubscribe answers errors inside the stream; everything else before it starts.
    const inStream = legacy && method === LEGACY_METHOD_TASKS_RESUBSCRIBE;
    const iterator = result[Symbol.asyncIterator]();
    const first = inStream ? undefined : await iterator.next();
    noteForAccessLog(request, { answer: first?.value });
    this.metrics.streamOpened('a2a', reply.raw);
    await streamSse(reply, { [Symbol.asyncIterator]: () => iterator }, jsonRpcStreamError(id, legacy), first);
  }
}
