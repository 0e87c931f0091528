import { CanActivate, ExecutionContext, Injectable, Logger, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyService } from './api-key.service';
import { attachPrincipal } from './principal';
import { IS_PUBLIC } from './public.decorator';

const REALM = 'Bearer realm="switchboard"';

/**
 * Every route needs `Authorization: Bearer <api key>` unless marked `@Public()`. Runs after the
 * rate-limit guard, so rejected attempts still count against the caller's IP.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  private readonly logger = new Logger(BearerAuthGuard.name);

  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.apiKeys.required) return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const verdict = this.apiKeys.verifyRequest(request);
    if (verdict.kind === 'valid') {
      attachPrincipal(request, verdict.principal);
      return true;
    }
    if (verdict.kind === 'invalid') {
      // RFC 6750 §3.1: a token was presented and rejected.
      this.logger.warn({ ip: request.ip, method: request.method, route: request.routeOptions.url }, 'rejected an invalid API key');
      return this.reject(http.getResponse<FastifyReply>(), 'invalid API key', `${REALM}, error="invalid_token"`);
    }
    // No credentials, or another scheme: RFC 6750 says not to add an error code.
    const message =
      verdict.kind === 'missing'
        ? 'missing bearer token: send "Authorization: Bearer <api key>"'
        : 'the Authorization header must use the Bearer scheme: "Authorization: Bearer <api key>"';
    return this.reject(http.getResponse<FastifyReply>(), message, REALM);
  }

  private reject(reply: FastifyReply, message: string, challenge: string): never {
    reply.header('WWW-Authenticate', challenge);
    throw new UnauthorizedException(message);
  }
}
