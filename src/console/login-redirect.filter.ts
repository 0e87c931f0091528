import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  ForbiddenException,
  HttpStatus,
  UnauthorizedException,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/** A console page refused by the auth guard (no login cookie, or a stale one) sends the browser to the login form. */
@Catch(UnauthorizedException, ForbiddenException)
export class LoginRedirectFilter implements ExceptionFilter {
  catch(_refusal: UnauthorizedException | ForbiddenException, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    reply.removeHeader('www-authenticate');
    void reply.status(HttpStatus.SEE_OTHER).header('location', '/console/login').send();
  }
}
