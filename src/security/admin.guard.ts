import { CanActivate, ExecutionContext, ForbiddenException, Injectable } from '@nestjs/common';
import { adminRefusal } from './access-scope';
import { CallerAuthenticator } from './caller-authenticator';
import { principalOf } from './principal';

/**
 * Operator routes (the admin API, MCP reconnects, the console): for callers granted `admin`, after
 * the global auth guard has found who they are. A service without keys or issuers runs open, these
 * routes too.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly callers: CallerAuthenticator) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.callers.required) return true;
    const principal = principalOf(context.switchToHttp().getRequest<object>());
    if (principal?.scope.admin) return true;
    throw new ForbiddenException(adminRefusal(principal?.name ?? 'anonymous'));
  }
}
