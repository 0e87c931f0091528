import { A2A_VERSION_HEADER, Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION, LEGACY_HTTP_EXTENSION_HEADER } from '@a2a-js/sdk/compat/v0_3';
import { defaultServerCallContextBuilder, ServerCallContext, UnauthenticatedUser, User } from '@a2a-js/sdk/server';
import type { IncomingHttpHeaders } from 'node:http';
import { principalOf } from '../security/principal';

/** Per the v1.0 spec a request without `A2A-Version` speaks v0.3. */
export function isLegacyRequest(headers: IncomingHttpHeaders, legacyCompat: boolean): boolean {
  return legacyCompat && (header(headers, A2A_VERSION_HEADER) ?? A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION;
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

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value || undefined;
}
