import { z } from 'zod';
import { upstreamOAuthSchema } from './auth.schema';
import { headerNameSchema, nameSchema } from './names.schema';

/** Credentials Switchboard presents to an external agent; values take `${VAR}` references. */
const externalAgentAuthSchema = z.union([
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('bearer'), token: z.string().min(1) }),
    z.strictObject({
      type: z.literal('api_key'),
      header: headerNameSchema.default('X-API-Key'),
      value: z.string().min(1),
    }),
  ]),
  upstreamOAuthSchema,
]);

/** A client certificate for mTLS, from PEM files read at boot. */
const clientTlsSchema = z.strictObject({
  cert_file: z.string().min(1),
  key_file: z.string().min(1),
  /** Trust this CA (PEM) for the agent's server certificate, besides the system's. */
  ca_file: z.string().min(1).optional(),
});

/** `[[a2a.external_agents]]`: the OpenFang seed's `name` and `url`, and what real deployments need besides. */
export const externalAgentSchema = z.strictObject({
  name: nameSchema,
  /** Where the agent publishes its card: `{url}{card_path}`. */
  url: z.url({ protocol: /^https?$/ }),
  /** Default: `/.well-known/agent-card.json`, then the older `/.well-known/agent.json`. `""` when `url` is the card's own URL. */
  card_path: z
    .string()
    .refine((path) => path === '' || path.startsWith('/'), 'must be empty or start with "/"')
    .optional(),
  auth: externalAgentAuthSchema.optional(),
  tls: clientTlsSchema.optional(),
  /** Sent with every request to the agent (card included); values take `${VAR}` references. */
  headers: z.record(headerNameSchema, z.string()).default({}),
  /** Deadline of each request to the agent (the card, a send, a poll). */
  timeout_secs: z.number().positive().default(30),
  /** A task delegated to the agent that has not ended after this long is canceled there and fails here. */
  task_timeout_secs: z.number().positive().default(600),
  /** LLM agents may delegate to it (`a2a_send`) without listing it in their own `delegates`. */
  trusted: z.boolean().default(false),
});

/** `[a2a.client]`: how external agents are discovered and followed. The SSE settings are the ARDF bridge's. */
export const a2aClientSettingsSchema = z.strictObject({
  /** First wait before discovering an unreachable agent again; doubles up to `discovery_retry_max_ms`. */
  discovery_retry_base_ms: z.number().int().positive().default(1_000),
  discovery_retry_max_ms: z.number().int().positive().default(60_000),
  /** A discovered agent's card is fetched again this often, so a changed card is picked up. */
  card_refresh_secs: z.number().positive().default(300),
  /** A card larger than this is refused. */
  max_card_bytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** A remote task stream that carries nothing for this long is dropped and resubscribed. */
  sse_idle_timeout_ms: z.number().int().positive().default(30_000),
  /** Resubscription backoff after a dropped stream: from `sse_retry_base_ms`, doubling, up to `sse_retry_max_ms`. */
  sse_retry_base_ms: z.number().int().positive().default(1_000),
  sse_retry_max_ms: z.number().int().positive().default(30_000),
  /** How often a remote task is polled (`GetTask`) when its agent cannot stream, or its streams keep failing. */
  poll_interval_ms: z.number().int().positive().default(1_000),
});

export type ExternalAgentSettings = z.infer<typeof externalAgentSchema>;
export type A2aClientSettings = z.infer<typeof a2aClientSettingsSchema>;
