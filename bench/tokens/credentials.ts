/**
 * What the token bench presents: tokens the provider issued by client credentials, tokens that
 * must be refused (each kind the verifier checks for), and API keys, each with the status it must
 * get; and the order they are sent in, about half of them valid.
 */
import { BENCH_API_KEY } from '../a2a/servers';
import { forgedToken, unsignedToken, withBadSignature } from '../../test/support/forged-tokens';
import { oauthConfigToml } from '../../test/support/oauth-config';
import type { OidcClient, OidcProvider } from '../../test/support/oidc-provider-process';

/** The groups CPU per validation is reported for. */
export type CredentialKind = 'valid JWT' | 'invalid JWT' | 'API key';

export interface Credential {
  label: string;
  kind: CredentialKind;
  authorization: string;
  /** 200 for a caller let in, 401 for a refused credential, 403 for a token short of the required scope. */
  expected: 200 | 401 | 403;
}

export const RESOURCE = 'http://switchboard.bench/mcp';
/** The provider issues one-second tokens for resources ending with this (oidc-provider.mjs's `shortLived`). */
export const SHORT_LIVED_SUFFIX = '/short';
export const SHORT_LIVED_RESOURCE = `http://switchboard.bench${SHORT_LIVED_SUFFIX}`;
export const REQUIRED_SCOPE = 'a2a';

const client = (client_id: string, scope: string): OidcClient => ({
  client_id,
  client_secret: `${client_id}-secret-0123456789`,
  scope,
});
export const VALID_CLIENTS = ['svc-a', 'svc-b', 'svc-c', 'svc-d'].map((id) => client(id, REQUIRED_SCOPE));
export const UNSCOPED_CLIENT = client('svc-unscoped', 'other');

/** The switchboard.toml trusting `issuer` for RESOURCE, with no clock skew so that an expired token is refused at once. */
export function oauthConfig(issuer: string): string {
  return oauthConfigToml({
    resource: RESOURCE,
    issuer,
    audiences: [SHORT_LIVED_RESOURCE],
    scopes: [REQUIRED_SCOPE],
    clockSkewSecs: 0,
  });
}

const bearer = (token: string) => `Bearer ${token}`;

/** Every credential of the mix; the short-lived token has expired when this resolves. */
export async function buildCredentials(provider: OidcProvider): Promise<Credential[]> {
  const [first] = VALID_CLIENTS;
  const shortLived = await provider.token(first, SHORT_LIVED_RESOURCE);
  const expiry = new Promise((resolve) => setTimeout(resolve, 2_100));
  const validTokens = await Promise.all(VALID_CLIENTS.map((c) => provider.token(c, RESOURCE)));
  const claims = { sub: first.client_id, scope: REQUIRED_SCOPE, iss: provider.issuer, aud: RESOURCE };
  const invalid = (label: string, token: string, expected: 401 | 403 = 401): Credential => ({
    label,
    kind: 'invalid JWT',
    authorization: bearer(token),
    expected,
  });
  const credentials: Credential[] = [
    ...validTokens.map((token, i): Credential => ({
      label: `token of ${VALID_CLIENTS[i].client_id}`,
      kind: 'valid JWT',
      authorization: bearer(token),
      expected: 200,
    })),
    { label: 'API key', kind: 'API key', authorization: bearer(BENCH_API_KEY), expected: 200 },
    invalid('wrong audience', await provider.token(first, 'http://elsewhere.bench/mcp')),
    invalid('expired', shortLived),
    invalid('bad signature', withBadSignature(validTokens[0])),
    invalid('untrusted issuer', await forgedToken({ ...claims, iss: 'http://127.0.0.1:1/untrusted' })),
    invalid('alg none', unsignedToken(claims)),
    invalid('unknown kid', await forgedToken(claims, 'unknown-kid')),
    invalid('JWT-shaped garbage', 'garbage.garbage.garbage'),
    invalid('insufficient scope', await provider.token(UNSCOPED_CLIENT, RESOURCE), 403),
    { label: 'wrong API key', kind: 'API key', authorization: bearer('not-the-bench-key-0123456789'), expected: 401 },
  ];
  await expiry;
  return credentials;
}

/** `count` credentials in turn: valid and refused ones alternate, each group round-robin. */
export function mix(credentials: Credential[], count: number): Credential[] {
  const valid = credentials.filter((c) => c.expected === 200);
  const refused = credentials.filter((c) => c.expected !== 200);
  const groups = [valid, refused];
  return Array.from({ length: count }, (_, i) => {
    const group = groups[i % 2];
    return group[Math.floor(i / 2) % group.length];
  });
}
