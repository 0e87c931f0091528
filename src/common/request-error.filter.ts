import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { ArgumentsHost, Catch, HttpException } from '@nestjs/common';
import { BaseExceptionFilter, HttpAdapterHost } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { JsonRpcRefusal } from './json-rpc-envelope';

/** On a JSON-RPC route, Fastify's refusals of a body become these JSON-RPC errors. */
const RPC_ERROR_OF_STATUS: Record<number, { code: number; httpStatus: number }> = {
  400: { code: A2A_ERROR_CODE.PARSE_ERROR, httpStatus: 200 },
  415: { code: A2A_ERROR_CODE.CONTENT_TYPE_NOT_SUPPORTED, httpStatus: 200 },
  413: { code: A2A_ERROR_CODE.INVALID_REQUEST, httpStatus: 413 },
};

/** On `/mcp`, the same refusals keep their HTTP status, as the MCP SDK's transport answers them. */
const MCP_ERROR_OF_STATUS: Record<number, { code: number; httpStatus: number }> = {
  400: { code: A2A_ERROR_CODE.PARSE_ERROR, httpStatus: 400 },
  415: { code: -32000, httpStatus: 415 },
  413: { code: A2A_ERROR_CODE.INVALID_REQUEST, httpStatus: 413 },
};

/**
 * Errors answered in the protocol of the route. Fastify refuses a body (bad JSON, wrong content
 * type, too large, too deep) before any controller runs, and Nest hands that on as an HttpException
 * with a bare message, or as the parser's error with its `statusCode`. On a JSON-RPC route that
 * becomes the JSON-RPC error (-32700, -32005 with HTTP 200 as the SDK's server answers, HTTP 413
 * with -32600), or the code and id a parser's error carries as `jsonRpc` (JSON too deep: -32600);
 * on `/mcp` the same JSON-RPC errors with the HTTP status the MCP SDK gives them; elsewhere a JSON body with `statusCode`, `error` and `message`. Everything else goes to Nest's
 * own handling.
 */
@Catch()
export class RequestErrorFilter extends BaseExceptionFilter {
  constructor(
    adapterHost: HttpAdapterHost,
    private readonly isJsonRpcRoute: (method: string, path: string) => boolean,
    private readonly isMcpRoute: (method: string, path: string) => boolean,
  ) {
    super(adapterHost.httpAdapter);
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    const refusal = requestRefusal(exception);
    if (!refusal) return super.catch(exception, host);
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, message, jsonRpc } = refusal;
    const rpcError = this.rpcErrorsOf(request)?.[status];
    if (rpcError) {
      const error = { code: jsonRpc?.code ?? rpcError.code, message };
      void reply.code(rpcError.httpStatus).send({ jsonrpc: '2.0', id: jsonRpc?.id ?? null, error });
      return;
    }
    void reply.code(status).send({ statusCode: status, error: STATUS_CODES[status], message });
  }

  private rpcErrorsOf(request: FastifyRequest): Record<number, { code: number; httpStatus: number }> | undefined {
    const path = request.url.split('?')[0];
    if (this.isJsonRpcRoute(request.method, path)) return RPC_ERROR_OF_STATUS;
    return this.isMcpRoute(request.method, path) ? MCP_ERROR_OF_STATUS : undefined;
  }
}

interface RequestRefusal {
  status: number;
  message: string;
  jsonRpc?: JsonRpcRefusal;
}

/** A refusal of the request itself: an HttpException with a bare message, or a 4xx error raised while reading the body. */
function requestRefusal(exception: unknown): RequestRefusal | undefined {
  if (exception instanceof HttpException) {
    return typeof exception.getResponse() === 'string' ? { status: exception.getStatus(), message: exception.message } : undefined;
  }
  const { statusCode, message, jsonRpc } = (exception ?? {}) as { statusCode?: unknown; message?: unknown; jsonRpc?: JsonRpcRefusal };
  const isClientError = typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500;
  return isClientError && typeof message === 'string' ? { status: statusCode, message, jsonRpc } : undefined;
}
