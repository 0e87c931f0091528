import { ServerCallContext } from '@a2a-js/sdk/server';
import { callContextOf, callerScopeOf } from '../tasks';
import type { AuthInfo, RequestId, ServerContext } from '@modelcontextprotocol/server';
import { AccessScope } from '../security/access-scope';

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

/**
 * The caller `authInfoOf` put in a request's `authInfo`, checked: a request of `/mcp` without one
 * is a bug of ours, said as such rather than failing later on a missing field.
 */
export function callerOf(authInfo: AuthInfo | undefined): McpCaller {
  const caller = authInfo?.extra?.caller;
  if (!isMcpCaller(caller)) {
    throw new Error(
      "An MCP request reached a handler without its caller: every request's authInfo is made by authInfoOf (mcp-caller.ts)",
    );
  }
  return caller;
}

function isMcpCaller(value: unknown): value is McpCaller {
  if (typeof value !== 'object' || value === null) return false;
  const { owner, scope, context } = value as Partial<McpCaller>;
  return typeof owner === 'string' && scope instanceof AccessScope && context instanceof ServerCallContext;
}

/**
 * How every handler of a server (agent and upstream tools, the bridge, the tasks methods) learns
 * who calls, for the request it serves: a server of `/mcp` may serve many callers (the pooled ones
 * do), a stdio connection has one.
 */
export type CallerOf = (ctx: ServerContext) => McpCaller;

/** The caller of the `/mcp` request a handler serves, from its `authInfo`. */
export const callerOfRequest: CallerOf = (ctx) => callerOf(ctx.http?.authInfo);

/** The caller of every request of a connection that has one (stdio: the SDK passes no `authInfo` there). */
export function connectionCaller(caller: McpCaller): CallerOf {
  return () => caller;
}

/**
 * The caller's scope in a context of its own, to read a task as stored: a context that sent a
 * message sees only what its stream replayed so far (RequestScopedTaskStore), maybe nothing yet.
 */
export function storedView(caller: McpCaller): ServerCallContext {
  return callContextOf(callerScopeOf(caller.context));
}
