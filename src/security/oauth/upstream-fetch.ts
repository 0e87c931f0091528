import { UpstreamAuthError } from './upstream-auth.error';
import type { UpstreamCredentials } from './upstream-credentials';

/**
 * `fetchImpl` for one upstream: with `credentials`, every request carries Switchboard's token for
 * it, and a refused one is asked for again once (the upstream may have revoked it). A 401 that
 * stands becomes an UpstreamAuthError naming the upstream and its challenge, where the SDKs would
 * report a bare status.
 */
export function upstreamFetch(
  fetchImpl: typeof fetch,
  upstream: string,
  credentials?: UpstreamCredentials,
): typeof fetch {
  return async (input, init) => {
    const send = async () => {
      if (!credentials) return fetchImpl(input, init);
      const headers = new Headers(init?.headers);
      headers.set('authorization', await credentials.authorization());
      return fetchImpl(input, { ...init, headers });
    };
    let response = await send();
    if (response.status === 401 && credentials && replayable(init?.body)) {
      await response.body?.cancel();
      credentials.forget();
      response = await send();
    }
    if (response.status !== 401) return response;
    const challenge = response.headers.get('www-authenticate');
    await response.body?.cancel();
    throw new UpstreamAuthError(
      `${upstream} refused ${credentials ? "Switchboard's token" : 'the request'} (401): ${challenge ? `it asks for ${challenge}` : 'it sent no WWW-Authenticate challenge'}`,
    );
  };
}

/** A body that can be sent a second time: not a stream, which the first attempt used up. */
function replayable(body: RequestInit['body']): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    body instanceof Uint8Array
  );
}
