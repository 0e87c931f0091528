import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MetricsService } from '../metrics/metrics.service';
import { A2aCall } from './a2a-call';
import { A2aEndpoints } from './a2a-endpoints.service';
import { AgentAccessGuard } from './agent-access.guard';
import { atEndpoint, callContextFor } from './call-context';
import { jsonRpcStreamError } from './json-rpc-exception.filter';
import { JsonRpcFailure } from './json-rpc-failure';
import { RestExceptionFilter } from './rest-exception.filter';
import { normalizeSeedRequest, withSeedAnswer } from './seed-compat';
import { isAsyncIterable, streamSse } from './sse';
import { jsonRpcParamsProblem } from './validation/json-rpc-params.validator';
import type { JsonRpcError } from '../common/json-rpc-envelope';

interface JsonRpcResponse {
  result?: unknown;
  error?: JsonRpcError;
}

/** The id of the JSON-RPC request a seed route makes of the v0.3 handler. */
const SEED_REQUEST_ID = 1;

/**
 * The seeds' REST forms (OpenFang's and PocketPaw's `/a2a/tasks/...`), under `a2a.listen_path`
 * (controllers.ts), served by the primary agent through the SDK's v0.3 JSON-RPC handler. Bodies may
 * be a JSON-RPC envelope (as OpenFang sends) or bare params; results are v0.3 objects, errors the
 * REST face's (RestExceptionFilter). The stream carries the v0.3 handler's JSON-RPC envelopes, an
 * error included.
 */
@UseGuards(AgentAccessGuard)
@UseFilters(RestExceptionFilter)
@Controller('tasks')
export class SeedRoutesController {
  constructor(
    private readonly endpoints: A2aEndpoints,
    private readonly metrics: MetricsService,
  ) {}

  @Post('send')
  @HttpCode(200)
  async send(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const context = this.followedWhileClientWaits(request, reply);
    await this.answer(reply, await this.call(context, 'message/send', paramsOf(body)), A2aCall.of(context).failure());
  }

  @Post('send/stream')
  async stream(@Body() body: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const context = this.followedWhileClientWaits(request, reply);
    const response = await this.call(context, 'message/stream', paramsOf(body));
    if (!isAsyncIterable(response)) return this.answer(reply, response, A2aCall.of(context).failure());
    const iterator = response[Symbol.asyncIterator]();
    let first: IteratorResult<unknown>;
    try {
      first = await iterator.next();
    } catch (error) {
      throw JsonRpcFailure.thrown(error, SEED_REQUEST_ID, true);
    }
    this.metrics.streamOpened('a2a', reply.raw);
    await streamSse(
      reply,
      { [Symbol.asyncIterator]: () => iterator },
      jsonRpcStreamError(SEED_REQUEST_ID, true),
      first,
    );
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
    const context = callContextFor(request, { ...request.headers, 'a2a-version': A2A_LEGACY_PROTOCOL_VERSION }, true);
    return atEndpoint(context, this.endpoints.primary().taskAgents);
  }

  /** The context of a send, whose tasks are followed only while its client waits for the answer. */
  private followedWhileClientWaits(request: FastifyRequest, reply: FastifyReply): ServerCallContext {
    const context = this.contextOf(request);
    this.endpoints.primary().handler.releaseWhenClientLeaves(context, reply.raw);
    return context;
  }

  private async call(
    context: ServerCallContext,
    method: string,
    params: unknown,
  ): Promise<JsonRpcResponse | AsyncIterable<unknown>> {
    const body = normalizeSeedRequest({ jsonrpc: '2.0', id: SEED_REQUEST_ID, method, params }) as {
      method: string;
      params: unknown;
    };
    const problem = jsonRpcParamsProblem(true, body.method, body.params);
    if (problem) return { error: { code: A2A_ERROR_CODE.INVALID_PARAMS, message: problem } };
    return this.endpoints.primary().legacyJsonRpc.handle(body, context) as Promise<
      JsonRpcResponse | AsyncIterable<unknown>
    >;
  }

  /** `cause`: the error behind a JSON-RPC error, when known. */
  private async answer(
    reply: FastifyReply,
    response: JsonRpcResponse | AsyncIterable<unknown>,
    cause?: unknown,
  ): Promise<void> {
    const { result, error } = response as JsonRpcResponse;
    if (error) throw JsonRpcFailure.answered({ jsonrpc: '2.0', id: SEED_REQUEST_ID, error }, cause);
    await reply.code(200).send(withSeedAnswer(result));
  }
}

/** OpenFang posts a whole JSON-RPC request; PocketPaw-style clients post its params. */
function paramsOf(body: unknown): unknown {
  const envelope = body as { jsonrpc?: unknown; params?: unknown } | null;
  return envelope && typeof envelope === 'object' && 'jsonrpc' in envelope ? envelope.params : body;
}
