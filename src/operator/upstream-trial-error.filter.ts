import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { ExternalAgentUnavailableError } from '../a2a-client/a2a-client.errors';
import { McpServerUnavailableError } from '../mcp-client/mcp-client.errors';

/** An upstream tried from the admin API that could not be reached or read: 502, in the admin API's JSON error form, with why. */
@Catch(McpServerUnavailableError, ExternalAgentUnavailableError)
export class UpstreamTrialErrorFilter implements ExceptionFilter {
  catch(error: McpServerUnavailableError | ExternalAgentUnavailableError, host: ArgumentsHost): void {
    const status = HttpStatus.BAD_GATEWAY;
    void host
      .switchToHttp()
      .getResponse<FastifyReply>()
      .code(status)
      .send({ statusCode: status, error: STATUS_CODES[status], message: error.message });
  }
}
