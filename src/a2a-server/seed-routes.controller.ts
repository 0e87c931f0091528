import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Body, Controller, Get, HttpCode, Logger, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MetricsService } from '../health/metrics.service';
import { A2aEndpoints } from './a2a-endpoints.service';
import { AgentAccessGuard } from './agent-access.guard';
import { callContextFor } from './call-context';
import { clientFacingError, retryAfterSecsOf } from './client-facing-error';
import { normalizeSeedRequest } from './seed-compat';
import { isAsyncIterable, streamSse } from './sse';
import { jsonRpcParamsProblem } from './validation/json-rpc-params.validator';
import type { JsonRpcError } from '../common/json-rpc-envelope';

interface JsonRpcResponse {
  result?: unknown;
  error?: JsonRpcError;
}

/** The id of the JSON-RPC request a seed route makes of the v0.3 handler. */
const SEED_REQUEST_ID = 1;

/** HTTP status of a JSON-RPC error when it is answered as plain REST. */
const STATUS_OF_CODE: Record<number, number> = {
  [A2A_ERROR_CODE.TASK_NOT_FOUND]: 404,
  [A2A_ERROR_CODE.TASK_NOT_CANCELABLE]: 409,
  [A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED]: 415,
  [A2A_ERROR_CODE.INTERNAL_ERROR]: 500,
};

/**
 * The seeds' REST forms (OpenFang's and PocketPaw's `/a2a/tasks/...`), served by the primary agent
 * through the SDK's v0.3 JSON-RPC handler. Bodies may be a JSON-RPC envelope (as OpenFang sends) or
 * bare params; results are v0.3 objects, errors `{ error, code, message }` with an HTTP status.
 * The stream carries the v0.3 handler's JSON-RPC envelopes, an error included.
 */
export function seedRoutesController(listenPath: string) {
  @UseGuards(AgentAccessGuard)
  @Controller(`${listenPath}/tasks`)
  class SeedRoutesController {
    private readonly logger = new Logger('SeedRoutes');

    constructor(
      private readonly endpoints: A2aEndpoints,
      private readonly metrics: MetricsService,
    ) {}

    @Post('send')
    @HttpCode(200)
    async send(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
      const context = this.followedWhileClientWaits(request, reply);
      await this.answer(reply, await this.call(context, 'message/send', paramsOf(body)), this.endpoints.primary().handler.failureOf(context));
    }

    @Post('send/stream')
    async stream(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
      const context = this.followedWhileClientWaits(request, reply);
      const response = await this.call(context, 'message/stream', paramsOf(body));
      if (!isAsyncIterable(response)) return this.answer(reply, response, this.endpoints.primary().handler.failureOf(context));
      const iterator = response[Symbol.asyncIterator]();
      let first: IteratorResult<unknown>;
      try {
        first = await iterator.next();
      } catch (error) {
        return this.answer(reply, { error: LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) }, error);
      }
      const toErrorEvent = (error: unknown) => ({
        jsonrpc: '2.0',
        id: SEED_REQUEST_ID,
        error: clientFacingError(LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error), this.logger, 'seed A2A stream failed', error),
      });
      this.metrics.streamOpened('a2a', reply.raw);
      await streamSse(reply, { [Symbol.asyncIterator]: () => iterator }, toErrorEvent, first);
    }

    @Get(':id')
    async get(
      @Param('id') id: string,
      @Query('history_length') historyLength: string | undefined,
      @Req() request: FastifyRequest,
      @Res() reply: FastifyReply,
    ): Promise<void> {
      const params = historyLength === undefined ? { id } : { id, historyLength: Number(historyLength) };
      await this.answer(reply, await this.call(this.contextOf(request), 'tasks/get', params));
    }

    @Post(':id/cancel')
    @HttpCode(200)
    async cancel(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
      await this.answer(reply, await this.call(this.contextOf(request), 'tasks/cancel', { id }));
    }

    private contextOf(request: FastifyRequest): ServerCallContext {
      return callContextFor(request, { ...request.headers, 'a2a-version': A2A_LEGACY_PROTOCOL_VERSION }, true);
    }

    /** The context of a send, whose tasks are followed only while its client waits for the answer. */
    private followedWhileClientWaits(request: FastifyRequest, reply: FastifyReply): ServerCallContext {
      const context = this.contextOf(request);
      this.endpoints.primary().handler.releaseWhenClientLeaves(context, reply.raw);
      return context;
    }

    private async call(context: ServerCallContext, method: string, params: unknown): Promise<JsonRpcResponse | AsyncIterable<unknown>> {
      const body = normalizeSeedRequest({ jsonrpc: '2.0', id: SEED_REQUEST_ID, method, params }) as { method: string; params: unknown };
      const problem = jsonRpcParamsProblem(true, body.method, body.params);
      if (problem) return { error: { code: A2A_ERROR_CODE.INVALID_PARAMS, message: problem } };
      return this.endpoints.primary().legacyJsonRpc.handle(body, context) as Promise<JsonRpcResponse | AsyncIterable<unknown>>;
    }

    /** `cause`: the error behind a JSON-RPC error, when known. */
    private async answer(reply: FastifyReply, response: JsonRpcResponse | AsyncIterable<unknown>, cause?: unknown): Promise<void> {
      const { result, error } = response as JsonRpcResponse;
      if (!error) return void (await reply.code(200).send(result));
      const { code, message } = clientFacingError(error, this.logger, 'seed A2A request failed', cause ?? error);
      const retryAfterSecs = retryAfterSecsOf(cause);
      if (retryAfterSecs !== undefined) reply.header('retry-after', String(retryAfterSecs));
      await reply.code(retryAfterSecs !== undefined ? 503 : (STATUS_OF_CODE[code] ?? 400)).send({ error: errorName(code), code, message });
    }
  }
  return SeedRoutesController;
}

/** OpenFang posts a whole JSON-RPC request; PocketPaw-style clients post its params. */
function paramsOf(body: unknown): unknown {
  const envelope = body as { jsonrpc?: unknown; params?: unknown } | null;
  return envelope && typeof envelope === 'object' && 'jsonrpc' in envelope ? envelope.params : body;
}

function errorName(code: number): string {
  const entry = Object.entries(A2A_ERROR_CODE).find(([, value]) => value === code);
  return entry ? entry[0].toLowerCase() : 'error';
}
