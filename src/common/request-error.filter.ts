import { ArgumentsHost, Catch, HttpException } from '@nestjs/common';
import { BaseExceptionFilter, HttpAdapterHost } from '@nestjs/core';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { JsonRpcRefusal } from './json-rpc-envelope';

/** A refusal of the request itself: a body Fastify could not take, an HttpException with a bare message, a server closing. */
export interface RequestRefusal {
  status: number;
  message: string;
  jsonRpc?: JsonRpcRefusal;
  /** Sent as `Retry-After`: the request may be sent again, then. */
  retryAfterSecs?: number;
}

/** How a protocol face answers a refusal on its routes, or undefined for the plain answer. */
export type RefusalAnswer = (refusal: RequestRefusal) => { status: number; body: unknown } | undefined;

const REFUSAL_ANSWER = 'refusalAnswer';

/** Declares on a route how its protocol answers a refused request (RequestErrorFilter). */
export const RefusalsAnswered = (answer: RefusalAnswer) => RouteConfig({ [REFUSAL_ANSWER]: answer });

/** Every JSON-RPC face answers 503 (unavailable: the request may be sent again) as JSON-RPC's internal error, as the SDKs do. */
const UNAVAILABLE = { 503: { code: -32603, httpStatus: 503 } };

/** Refusals as JSON-RPC errors: the code and HTTP status for each refused status (others get the plain answer). */
export function refusalAsJsonRpc(errorOfStatus: Record<number, { code: number; httpStatus: number }>): RefusalAnswer {
  const errors: Record<number, { code: number; httpStatus: number }> = { ...UNAVAILABLE, ...errorOfStatus };
  return ({ status, message, jsonRpc }) => {
    const rpcError = errors[status];
    if (!rpcError) return undefined;
    const error = { code: jsonRpc?.code ?? rpcError.code, message };
    return { status: rpcError.httpStatus, body: { jsonrpc: '2.0', id: jsonRpc?.id ?? null, error } };
  };
}

/**
 * Refusals of a request, answered in the protocol of its route. Fastify refuses a body (bad JSON,
 * wrong content type, too large, too deep) before any controller runs, and Nest hands that on as an
 * HttpException with a bare message, or as the parser's error with its `statusCode` (and, for JSON
 * too deep, the JSON-RPC code and id as `jsonRpc`). A route declares its protocol's answer with
 * RefusalsAnswered (the A2A JSON-RPC routes, `/mcp`); elsewhere a refusal is a JSON body with
 * `statusCode`, `error` and `message`. Everything else goes to Nest's own handling, or to the
 * exception filter of the route's protocol face.
 */
@Catch()
export class RequestErrorFilter extends BaseExceptionFilter {
  constructor(adapterHost: HttpAdapterHost) {
    super(adapterHost.httpAdapter);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const refusal = requestRefusal(exception);
    if (!refusal) return super.catch(exception, host);
    void answerRefusal(
      host.switchToHttp().getRequest<FastifyRequest>(),
      host.switchToHttp().getResponse<FastifyReply>(),
      refusal,
    );
  }
}

/** Answers `refusal` as the request's route declares (RefusalsAnswered), else as a JSON body with `statusCode`, `error` and `message`. */
export function answerRefusal(request: FastifyRequest, reply: FastifyReply, refusal: RequestRefusal): FastifyReply {
  if (refusal.retryAfterSecs !== undefined) reply.header('retry-after', String(refusal.retryAfterSecs));
  const answer = (request.routeOptions?.config as { [REFUSAL_ANSWER]?: RefusalAnswer } | undefined)?.[REFUSAL_ANSWER]?.(
    refusal,
  );
  if (answer) return reply.code(answer.status).send(answer.body);
  return reply
    .code(refusal.status)
    .send({ statusCode: refusal.status, error: STATUS_CODES[refusal.status], message: refusal.message });
}

function requestRefusal(exception: unknown): RequestRefusal | undefined {
  if (exception instanceof HttpException) {
    return typeof exception.getResponse() === 'string'
      ? { status: exception.getStatus(), message: exception.message }
      : undefined;
  }
  const { statusCode, message, jsonRpc } = (exception ?? {}) as {
    statusCode?: unknown;
    message?: unknown;
    jsonRpc?: JsonRpcRefusal;
  };
  const isClientError = typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
  return isClientError && typeof message === 'string' ? { status: statusCode, message, jsonRpc } : undefined;
}
