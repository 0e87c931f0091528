/** A switchboard.toml trusting one issuer on loopback for `resource`: the OAuth specs' and the token bench's. */
export interface TrustedIssuer {
  resource: string;
  issuer: string;
  audiences?: string[];
  scopes?: string[];
  /** Unset: Switchboard's default. */
  clockSkewSecs?: number;
}

export function oauthConfigToml({
  resource,
  issuer,
  audiences = [],
  scopes = [],
  clockSkewSecs,
}: TrustedIssuer): string {
  return [
    '[outbound]',
    'allow_hosts = ["127.0.0.1"]',
    '[auth.oauth]',
    `resource = ${JSON.stringify(resource)}`,
    ...(clockSkewSecs === undefined ? [] : [`clock_skew_secs = ${clockSkewSecs}`]),
    '[[auth.oauth.issuers]]',
    `issuer = ${JSON.stringify(issuer)}`,
    `audiences = ${JSON.stringify(audiences)}`,
    `scopes = ${JSON.stringify(scopes)}`,
    '',
  ].join('\n');
}
