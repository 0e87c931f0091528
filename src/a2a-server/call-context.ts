import { A2A_VERSION_HEADER, Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION, LEGACY_HTTP_EXTENSION_HEADER } from '@a2a-js/sdk/compat/v0_3';
import {
  defaultServerCallContextBuilder,
  type ServerCallContext,
  type ServerCallContextBuilder,
  UnauthenticatedUser,
  type User,
} from '@a2a-js/sdk/server';
import type { IncomingHttpHeaders } from 'node:http';
import { principalOf } from '../security/principal';
import { attachEndpointAgents } from '../tasks';

/** Per the v1.0 spec a request without `A2A-Version` speaks v0.3. */
export function isLegacyRequest(headers: IncomingHttpHeaders, legacyCompat: boolean): boolean {
  return (
    legacyCompat && (header(headers, A2A_VERSION_HEADER) ?? A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION
  );
}

/** The SDK's call context for a request: the caller (from the bearer guard), version and extensions. */
export function callContextFor(request: object, headers: IncomingHttpHeaders, legacy: boolean): ServerCallContext {
  const principal = principalOf(request);
  const user: User = principal ? { isAuthenticated: true, userName: principal.name } : new UnauthenticatedUser();
  const extensions = legacy
    ? (header(headers, LEGACY_HTTP_EXTENSION_HEADER) ?? header(headers, HTTP_EXTENSION_HEADER))
    : header(headers, HTTP_EXTENSION_HEADER);
  return defaultServerCallContextBuilder({
    extensions: Extensions.parseServiceParameter(extensions),
    user,
    headers,
    requestedVersion: header(headers, A2A_VERSION_HEADER),
  });
}

/**
 * `context`, of a call that came to an agent's endpoint, which reads the tasks of `taskAgents`
 * (endpointTaskAgents): each hosted agent is an A2A server of its own, so the call gets, lists,
 * cancels, follows and continues its agent's tasks only.
 */
export function atEndpoint(context: ServerCallContext, taskAgents: readonly string[]): ServerCallContext {
  attachEndpointAgents(context, taskAgents);
  return context;
}

/** The SDK's context builder, for the calls of an agent's endpoint (atEndpoint). */
export function endpointContextBuilder(taskAgents: readonly string[]): ServerCallContextBuilder {
  return (options) => atEndpoint(defaultServerCallContextBuilder(options), taskAgents);
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value || undefined;
}
