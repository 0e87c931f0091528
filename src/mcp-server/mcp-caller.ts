import type { ServerCallContext } from '@a2a-js/sdk/server';
import { callContextOf, callerScopeOf } from '../tasks';
import type { AuthInfo, RequestId, ServerContext } from '@modelcontextprotocol/server';
import type { AccessScope } from '../security/access-scope';

/** Who is calling `/mcp`, as the tools need it: the A2A call context of the caller, and its 2025-era session if any. */
export interface McpCaller {
  /** The principal's name (empty when the service runs without keys); sessions belong to it. */
  owner: string;
  /** The tools and agents the caller's key may reach. */
  scope: AccessScope;
  context: ServerCallContext;
  sessionId?: string;
  /** The `task` a 2025-era `tools/call` request carries (the SDK does not hand it to tool callbacks); undefined when none. */
  taskParamOf?: (requestId: RequestId) => unknown;
  /** Where the caller reaches this service (agent card URLs are given relative to it); the configured address when unset. */
  baseUrl?: string;
}

/**
 * What the server for one HTTP request must answer: a call of one tool, a `ping` or the tool list
 * (`listing`), or anything.
 */
export type ServerNeeds = { tool: string } | 'listing' | 'everything';

/**
 * The caller, and what its request needs of a server, ride to the servers `/mcp` builds, and to
 * their handlers, in the SDK's pass-through `authInfo`.
 */
export function authInfoOf(caller: McpCaller, needs: ServerNeeds): AuthInfo {
  return { token: '', clientId: caller.owner, scopes: [], extra: { caller, needs } };
}

export function serverNeedsOf(authInfo: AuthInfo | undefined): ServerNeeds {
  return (authInfo?.extra?.needs as ServerNeeds | undefined) ?? 'everything';
}

export function callerOf(authInfo: AuthInfo | undefined): McpCaller {
  return authInfo?.extra?.caller as McpCaller;
}

/** The caller of the HTTP request a handler serves. */
export function callerOfRequest(ctx: ServerContext): McpCaller {
  return callerOf(ctx.http?.authInfo);
}

/**
 * The caller's scope in a context of its own, to read a task as stored: a context that sent a
 * message sees only what its stream replayed so far (RequestScopedTaskStore), maybe nothing yet.
 */
export function storedView(caller: McpCaller): ServerCallContext {
  return callContextOf(callerScopeOf(caller.context));
}
