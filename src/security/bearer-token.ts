/** What an `Authorization` header carries, as far as bearer authentication cares. */
export type BearerCredentials =
  | { kind: 'token'; token: string }
  /** No header at all. */
  | { kind: 'missing' }
  /** A header with another scheme (Basic, ...) or no token after "Bearer". */
  | { kind: 'not-bearer' };

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function bearerCredentials(authorization: string | string[] | undefined): BearerCredentials {
  if (authorization === undefined || authorization === '') return { kind: 'missing' };
  const match = BEARER.exec(Array.isArray(authorization) ? authorization[0] : authorization);
  return match ? { kind: 'token', token: match[1] } : { kind: 'not-bearer' };
}
