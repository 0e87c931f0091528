import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { AccessScope } from '../security/access-scope';

/** Who is calling `/mcp`, as the tools need it: the A2A call context of the caller, and its 2025-era session if any. */
export interface McpCaller {
  /** The principal's name (empty when the service runs without keys); sessions belong to it. */
  owner: string;
  /** The tools and agents the caller's key may reach. */
  scope: AccessScope;
  context: ServerCallContext;
  sessionId?: string;
  /** Where the caller reaches this service (agent card URLs are given relative to it); the configured address when unset. */
  baseUrl?: string;
}
