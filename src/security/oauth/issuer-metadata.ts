/** The paths an issuer's metadata may be at: OpenID Connect's, then RFC 8414's. */
const METADATA_PATHS = ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server'];

/**
 * An endpoint an authorization server publishes in its metadata (`jwks_uri`, `token_endpoint`,
 * `introspection_endpoint`), read through `fetchImpl` (the SSRF-guarded fetch).
 */
export async function issuerEndpoint(fetchImpl: typeof fetch, issuer: string, field: string): Promise<string> {
  for (const path of METADATA_PATHS) {
    const response = await fetchImpl(issuer.replace(/\/$/, '') + path, { headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      continue;
    }
    const endpoint = ((await response.json()) as Record<string, unknown>)[field];
    if (typeof endpoint === 'string') return endpoint;
  }
  throw new Error(`issuer ${issuer} publishes no ${field} in its metadata`);
}

/** RFC 6749 §2.3.1: a confidential client's HTTP Basic credentials, each part form-encoded first. */
export function clientBasicAuthorization(client: { client_id: string; client_secret: string }): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(client.client_id)}:${encode(client.client_secret)}`).toString('base64')}`;
}
