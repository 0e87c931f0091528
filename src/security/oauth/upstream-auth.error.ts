/**
 * An upstream that would not let Switchboard in, or a token Switchboard could not get for it: the
 * message names the upstream and what was asked for (its `WWW-Authenticate` challenge, its
 * authorization server's error), never a token.
 */
export class UpstreamAuthError extends Error {
  override readonly name = 'UpstreamAuthError';
}
