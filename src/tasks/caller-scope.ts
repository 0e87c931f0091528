import { ServerCallContext, UnauthenticatedUser, type User } from '@a2a-js/sdk/server';
import type { CallerScope } from '../queue/queue.constants';
import { attachEndpointAgents, attachTaskAgent, taskAgentOf } from '../task-store/task-agent';

/** What a job must carry of a request's context for the worker to act in the caller's scope. */
export function callerScopeOf(context: ServerCallContext): CallerScope {
  const agent = taskAgentOf(context);
  return {
    tenant: context.tenant ?? '',
    userName: context.user?.userName ?? '',
    authenticated: context.user?.isAuthenticated ?? false,
    ...(agent !== undefined && { agent }),
  };
}

export function callContextOf(caller: CallerScope): ServerCallContext {
  const user: User = caller.authenticated
    ? { isAuthenticated: true, userName: caller.userName }
    : new UnauthenticatedUser();
  const context = new ServerCallContext({ user, tenant: caller.tenant || undefined });
  if (caller.agent !== undefined) attachTaskAgent(context, caller.agent);
  return context;
}

export { attachEndpointAgents, attachTaskAgent };
