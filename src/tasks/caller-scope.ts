import { ServerCallContext, UnauthenticatedUser, User } from '@a2a-js/sdk/server';
import type { CallerScope } from '../queue/queue.constants';

/** What a job must carry of a request's context for the worker to act in the caller's scope. */
export function callerScopeOf(context: ServerCallContext): CallerScope {
  return {
    tenant: context.tenant ?? '',
    userName: context.user?.userName ?? '',
    authenticated: context.user?.isAuthenticated ?? false,
  };
}

export function callContextOf(caller: CallerScope): ServerCallContext {
  const user: User = caller.authenticated ? { isAuthenticated: true, userName: caller.userName } : new UnauthenticatedUser();
  return new ServerCallContext({ user, tenant: caller.tenant || undefined });
}
