import { A2A_CONTENT_TYPE } from '@a2a-js/sdk';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { SwitchboardConfig } from '../config/config.schema';

/**
 * A2A v1.0.1 prefers the media type `application/a2a+json`. Requests in it are taken as JSON (the
 * app's parser); a JSON answer under the A2A path is labelled with it when the client's `Accept`
 * asks for it, and stays `application/json` otherwise. (The HTTP+JSON binding answers in it always,
 * as the SDK's router does.)
 */
@Injectable()
export class A2aMediaType implements OnModuleInit {
  private readonly listenPath: string;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.listenPath = config.get('a2a', { infer: true }).listen_path;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onSend', async (request, reply, payload) => {
      if (!request.url.startsWith(this.listenPath) || !acceptsA2aJson(request.headers.accept)) return payload;
      if (String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
        reply.header('content-type', `${A2A_CONTENT_TYPE}; charset=utf-8`);
      return payload;
    });
  }
}

/** Whether an `Accept` header lists `application/a2a+json` (with a quality above 0). */
function acceptsA2aJson(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === A2A_CONTENT_TYPE && !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}
