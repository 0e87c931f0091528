import { z } from 'zod';
import { nameSchema } from './names.schema';
import { isPlaceholderSecret, PLACEHOLDER_SECRET_ADVICE } from './placeholder-secret';

/** A tool or agent name, where `*` matches any run of characters (`mcp_github_*`). */
const accessPatternSchema = z
  .string()
  .regex(/^[A-Za-z0-9_*.-]+$/, 'must be a tool or agent name, "*" matching any run of characters (mcp_github_*)');

/** What a key or a rule grants: tools as `/mcp` lists them, and agents; all of a kind when its list is unset. */
const grantShape = {
  /** The tools the caller may list and call at `/mcp` (`*` matches any run of characters); all when unset. */
  tools: z.array(accessPatternSchema).optional(),
  /** The hosted and external agents the caller may reach over A2A, `/mcp` and the bridge; all when unset. */
  agents: z.array(accessPatternSchema).optional(),
  /**
   * Operator rights: the admin API (`/api/admin/*`, MCP reconnects) and the console (`/console`). A
   * grant of `admin` alone leaves the caller's tools and agents as they would be without it.
   */
  admin: z.boolean().optional(),
  /**
   * A scrape credential (Prometheus's): the caller may read `/metrics` and nothing else, whatever
   * else it matches. So it grants none of the above.
   */
  metrics_only: z.boolean().optional(),
};

/** A metrics-only key or rule grants nothing but `/metrics`: its other grants would be void. */
const metricsOnlyAlone = [
  (grant: { metrics_only?: boolean; tools?: unknown; agents?: unknown; admin?: boolean }) =>
    !(grant.metrics_only && (grant.tools || grant.agents || grant.admin)),
  { message: 'metrics_only = true: the caller reaches /metrics and nothing else; remove its tools, agents and admin' },
] as const;

/** An ISO 8601 time with its offset (`2027-01-01T00:00:00Z`): a key is refused from then on. */
const expiresAtSchema = z.iso.datetime({ offset: true });

const apiKeyValueSchema = z
  .string()
  .min(16, 'an API key must be at least 16 characters')
  .refine((key) => !isPlaceholderSecret(key), `the key ${PLACEHOLDER_SECRET_ADVICE}`);

const apiKeySchema = z.union(
  [
    apiKeyValueSchema,
    z
      .strictObject({ name: nameSchema, key: apiKeyValueSchema, expires_at: expiresAtSchema.optional(), ...grantShape })
      .refine(...metricsOnlyAlone),
  ],
  {
    error:
      'must be a key, or a table with the name and key (name=key in SWITCHBOARD_ADMIN_KEYS and SWITCHBOARD_METRICS_KEYS)',
  },
);

/** A key created through the admin API: its name, grant and expiry; the key itself is made there and answered once. */
export const createdKeySchema = z
  .strictObject({ name: nameSchema, expires_at: expiresAtSchema.optional(), ...grantShape })
  .refine(...metricsOnlyAlone);

/** Such a key as stored: its SHA-256 digest (hex) in place of the key. */
export const storedKeySchema = z.strictObject({
  name: nameSchema,
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  expires_at: expiresAtSchema.optional(),
  ...grantShape,
});

/**
 * `[[auth.rules]]`: what callers matching every condition given may reach, as keys' own `tools` and
 * `agents` do. A rule matches API keys (`keys`) or access tokens (`subjects`, `claims`), not both;
 * one without conditions matches every caller.
 */
export const accessRuleSchema = z
  .strictObject({
    /** How the admin API and the audit trail name the rule; `rule-<position>` (from 1) when unset. */
    name: nameSchema.optional(),
    /** API key names, `*` patterns. */
    keys: z.array(z.string().min(1)).min(1).optional(),
    /** Token principals (`sub@issuer-host`, or `tenant/sub@issuer-host` with a tenant claim), `*` patterns. */
    subjects: z.array(z.string().min(1)).min(1).optional(),
    /** Token claims: each must hold one of its values (a string claim, a list claim's item, a word of `scope`); `*` patterns. */
    claims: z.record(z.string().min(1), z.array(z.string().min(1)).min(1)).optional(),
    ...grantShape,
  })
  .refine((rule) => !(rule.keys && (rule.subjects || rule.claims)), {
    message: 'a rule matches API keys ("keys") or access tokens ("subjects", "claims"), not both',
  })
  .refine(...metricsOnlyAlone);

const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

/** A confidential client of an authorization server: how Switchboard authenticates to it (HTTP Basic). */
const clientCredentialsShape = {
  client_id: z.string().min(1),
  /** Takes a `${VAR}` reference, as every secret should. */
  client_secret: z.string().min(1),
};

/** An authorization server whose access tokens this Switchboard accepts. */
const oauthIssuerSchema = z.strictObject({
  /** The issuer identifier, as tokens carry it in `iss`; its metadata is at `{issuer}/.well-known/openid-configuration` (or `oauth-authorization-server`). */
  issuer: z.url(),
  /** Where its signing keys are; read from its metadata when unset. */
  jwks_uri: z.url().optional(),
  /** Audiences accepted besides the resource and the A2A resource derived from it. */
  audiences: z.array(z.string().min(1)).default([]),
  /** Scopes every token of this issuer must carry; a token short of one is answered 403 `insufficient_scope`. */
  scopes: z.array(z.string().min(1)).default([]),
  /** A claim naming the caller's tenant (`tid`, `org_id`): tokens must carry it, and the principal is `tenant/sub@issuer-host`. */
  tenant_claim: z.string().min(1).optional(),
  /** Opaque (non-JWT) tokens are checked at the issuer's RFC 7662 endpoint, as this client; its metadata's `introspection_endpoint` unless `endpoint`. */
  introspection: z.strictObject({ endpoint: z.url().optional(), ...clientCredentialsShape }).optional(),
});

/** Switchboard as an OAuth 2.1 protected resource (MCP authorization, RFC 9728), beside API keys. */
const oauthSchema = z.strictObject({
  /** This Switchboard's canonical `/mcp` URL (RFC 8707): tokens must be issued for it, or for the A2A resource (`a2a.listen_path` on its origin). */
  resource: z.url(),
  issuers: z.array(oauthIssuerSchema).min(1),
  algorithms: z.array(z.enum(JWT_ALGORITHMS)).min(1).default(['RS256', 'PS256', 'ES256', 'EdDSA']),
  clock_skew_secs: z.number().int().min(0).max(300).default(60),
  /** How long an introspected token's answer is kept (at most until the token expires). */
  introspection_cache_secs: z.number().int().min(0).default(60),
});

/** The name of the rule at `index` of `auth.rules`: its own, or `rule-<position>` (from 1). */
export function ruleName(rule: { name?: string }, index: number): string {
  return rule.name ?? `rule-${index + 1}`;
}

export const authSchema = z
  .strictObject({
    api_keys: z.array(apiKeySchema).default([]),
    allow_open: z.boolean().default(false),
    oauth: oauthSchema.optional(),
    rules: z
      .array(accessRuleSchema)
      .default([])
      .superRefine((rules, ctx) => {
        const names = new Set<string>();
        rules.forEach((rule, index) => {
          const name = ruleName(rule, index);
          if (names.has(name))
            ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate rule name "${name}"` });
          names.add(name);
        });
      }),
    /** What a caller no rule (and no list of its key) matches may reach: everything, or nothing. */
    default_access: z.enum(['all', 'none']).default('all'),
  })
  .prefault({});

/** Where Switchboard gets tokens for an upstream: the server's `token_endpoint`, or its metadata's when `issuer` is given. */
const tokenEndpointShape = {
  issuer: z.url().optional(),
  token_endpoint: z.url().optional(),
  ...clientCredentialsShape,
  /** Asked for (space-separated). */
  scope: z.string().min(1).optional(),
  /** The upstream as a resource (RFC 8707): the audience of the tokens asked for. */
  resource: z.url().optional(),
};

/**
 * OAuth 2.1 to an upstream (an MCP server over HTTP, an external A2A agent): a token of its own by
 * client credentials, or the caller's token exchanged (RFC 8693) for one whose audience is the
 * upstream (on behalf of the caller). The caller's token is never sent on as it is.
 */
export const upstreamOAuthSchema = z
  .discriminatedUnion('type', [
    z.strictObject({ type: z.literal('oauth_client_credentials'), ...tokenEndpointShape }),
    z.strictObject({
      type: z.literal('oauth_token_exchange'),
      ...tokenEndpointShape,
      /** RFC 8693 `audience`, for servers that name the upstream so rather than by `resource`. */
      audience: z.string().min(1).optional(),
    }),
  ])
  .refine((auth) => (auth.issuer === undefined) !== (auth.token_endpoint === undefined), {
    message: 'needs exactly one of "issuer" (its metadata names the token endpoint) and "token_endpoint"',
  });

export type UpstreamOAuthConfig = z.infer<typeof upstreamOAuthSchema>;
export type AuthConfig = z.infer<typeof authSchema>;
export type AccessRule = AuthConfig['rules'][number];
/** What a key or rule grants; a kind whose list is unset is granted whole. */
export type AccessGrant = Pick<AccessRule, 'tools' | 'agents' | 'admin' | 'metrics_only'>;
