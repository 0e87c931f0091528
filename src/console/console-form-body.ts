import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { errorCodes, type FastifyInstance } from 'fastify';

const FORM = 'application/x-www-form-urlencoded';

/**
 * HTML forms' bodies, for the console's routes only: every other route keeps refusing them as an
 * unsupported media type (415), as it does without a parser.
 */
@Injectable()
export class ConsoleFormBody implements OnModuleInit {
  constructor(private readonly adapter: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter.getInstance<FastifyInstance>();
    fastify.addContentTypeParser(FORM, { parseAs: 'string' }, (request, body, done) => {
      if (!request.url.startsWith('/console/')) return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }
}
