import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { metricsOnlyRefusal } from './access-scope';
import { CallerAuthenticator, CallerVerdict } from './caller-authenticator';
import { consoleSessionKey, sameOriginOrSafe } from './console-session';
import { IS_METRICS_ROUTE } from './metrics-route.decorator';
import { attachPrincipal } from './principal';
import { IS_PUBLIC } from './public.decorator';

/**
 * Every route needs `Authorization: Bearer <api key or access token>` unless marked `@Public()`;
 * under `/console` and `/api/admin` the console's session cookie stands for it (console-session.ts).
 * A scrape credential (`metrics_only`) passes on `@MetricsRoute()` routes alone.
 * Runs after the rate-limit guard, so rejected attempts still count against the caller's IP.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  private readonly logger = new Logger(BearerAuthGuard.name);

  constructor(
    private readonly callers: CallerAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!this.callers.required) return true;
    const marked = (key: string) =>
      this.reflector.getAllAndOverride<boolean>(key, [context.getHandler(), context.getClass()]);
    if (marked(IS_PUBLIC)) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const verdict = await this.verdictOf(request);
    if (verdict.kind === 'valid') {
      if (verdict.principal.scope.metricsOnly && !marked(IS_METRICS_ROUTE))
        throw new ForbiddenException(metricsOnlyRefusal(verdict.principal.name));
      attachPrincipal(request, verdict.principal);
      return true;
    }
    if (verdict.kind === 'insufficient_scope') {
      // RFC 6750 §3.1: the token is good, but not for this.
      reply.header('WWW-Authenticate', this.callers.challenge(`error="insufficient_scope", scope="${verdict.scope}"`));
      throw new ForbiddenException(`the access token lacks the scope ${verdict.scope}`);
    }
    if (verdict.kind === 'invalid') {
      // RFC 6750 §3.1: a token was presented and rejected.
      this.logger.warn(
        { ip: request.ip, method: request.method, route: request.routeOptions.url },
        'rejected an invalid API key',
      );
      return this.reject(reply, this.callers.invalidMessage, this.callers.challenge('error="invalid_token"'));
    }
    // No credentials, or another scheme: RFC 6750 says not to add an error code.
    const message =
      verdict.kind === 'missing'
        ? 'missing bearer token: send "Authorization: Bearer <api key>"'
        : 'the Authorization header must use the Bearer scheme: "Authorization: Bearer <api key>"';
    return this.reject(reply, message, this.callers.challenge());
  }

  /** The bearer credentials' verdict; without them, the console session's where its cookie counts. */
  private async verdictOf(request: FastifyRequest): Promise<CallerVerdict> {
    const verdict = await this.callers.authenticate(request);
    const sessionKey = verdict.kind === 'missing' ? consoleSessionKey(request) : undefined;
    if (sessionKey === undefined) return verdict;
    if (!sameOriginOrSafe(request))
      throw new ForbiddenException(
        'a request that changes something with the console session must come from the console (same-origin Origin header)',
      );
    return this.callers.authenticateSession(sessionKey);
  }

  private reject(reply: FastifyReply, message: string, challenge: string): never {
    reply.header('WWW-Authenticate', challenge);
    throw new UnauthorizedException(message);
  }
}
