import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { CatalogEntryInvalidError, CatalogError, CatalogVersionMismatchError } from '../catalog/catalog.errors';

/** The catalog's refusals as the admin API's JSON errors: `statusCode`, `error`, `message`, and what helps to act on them. */
@Catch(CatalogError)
export class CatalogErrorFilter implements ExceptionFilter {
  catch(error: CatalogError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    void reply.code(error.status).send({
      statusCode: error.status,
      error: STATUS_CODES[error.status],
      message: error.message,
      ...(error instanceof CatalogEntryInvalidError && { problems: error.problems }),
      ...(error instanceof CatalogVersionMismatchError && { currentVersion: error.currentVersion }),
    });
  }
}
