import { z } from 'zod';
import { authSchema, upstreamOAuthSchema } from './auth.schema';
import { executorSettingsSchema } from './executor-settings.schema';
import { tracingSchema } from './tracing.schema';
import { a2aClientSettingsSchema, externalAgentSchema, type ExternalAgentSettings } from './external-agent.schema';
import type { SubagentManifest } from './subagent-manifest.schema';
import { envVarNameSchema, headerNameSchema, nameSchema, toolNamePart } from './names.schema';
import { databaseUrlSchema, redisUrlSchema } from './store-urls.schema';

const MB = 1024 * 1024;

export const logSchema = z
  .strictObject({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    pretty: z.boolean().default(false),
    /** `stderr` where stdout carries a protocol (`switchboard mcp`). */
    destination: z.enum(['stdout', 'stderr']).default('stdout'),
  })
  .prefault({});

/** `[catalog]`: what the admin API may add to the catalog at runtime, beside the file's entries. */
const catalogSettingsSchema = z
  .strictObject({
    /** An MCP server with a stdio command may be created through the admin API: a command line from the network runs code here. */
    allow_stdio_from_api: z.boolean().default(false),
    /** Entries of one kind (MCP servers, external agents, agents, keys, rules) the admin API may hold at most. */
    max_entries: z.number().int().positive().default(500),
    /** Re-read the file when it changes, as on SIGHUP. */
    watch_file: z.boolean().default(false),
    /**
     * Encrypts secrets given by value through the admin API (AES-256-GCM, key derived from it); from
     * SWITCHBOARD_CATALOG_KEY. Without it, such secrets are refused and only `${VAR}` references are taken.
     */
    encryption_key: z.string().min(32, 'must be at least 32 characters').optional(),
  })
  .prefault({});

/** Served when no agent is configured, so a fresh install answers at once. */
export const DEMO_AGENT_NAME = 'echo';

/** A command path that climbs out of its directory (`../bin/server`) is refused: stdio servers run what the config names, nothing relative to it. */
const stdioCommandSchema = z
  .string()
  .min(1)
  .refine((command) => !command.split(/[\\/]/).includes('..'), 'must not contain a ".." path segment');

const mcpTransportSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('stdio'),
    command: stdioCommandSchema,
    args: z.array(z.string()).default([]),
  }),
  z.strictObject({ type: z.literal('sse'), url: z.url(), auth: upstreamOAuthSchema.optional() }),
  z.strictObject({
    type: z.literal('http'),
    url: z.url(),
    /** Sent on every request; values take `${VAR}` references, resolved from the environment at load. */
    headers: z.record(headerNameSchema, z.string()).default({}),
    /** OAuth 2.1 to the server: its `Authorization` header, replacing one in `headers`. */
    auth: upstreamOAuthSchema.optional(),
  }),
]);

export const mcpServerSchema = z.strictObject({
  name: nameSchema,
  /** Deadline of every request to the server: connecting, listing tools, each tool call. */
  timeout_secs: z.number().int().positive().default(30),
  /** The only variables (besides PATH) a stdio server's process sees, passed from Switchboard's environment. */
  env: z.array(envVarNameSchema).default([]),
  transport: mcpTransportSchema,
});

const skillSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().default(''),
  tags: z.array(z.string()).default([]),
  examples: z.array(z.string()).default([]),
});

export const agentSchema = z.strictObject({
  name: nameSchema,
  description: z.string().default(''),
  version: z.string().default('1.0.0'),
  skills: z.array(skillSchema).default([]),
  /**
   * Skills shown only to authenticated callers, in the extended agent card (`GetExtendedAgentCard`,
   * v0.3 `agent/getAuthenticatedExtendedCard`); offered only when API keys are configured.
   */
  extended_skills: z.array(skillSchema).default([]),
  input_modes: z.array(z.string()).default(['text/plain', 'application/json']),
  output_modes: z.array(z.string()).default(['text/plain', 'application/json']),
  executor: executorSettingsSchema,
  /** Tools the agent may call: names or `*` patterns (`mcp_github_*`); none when empty. */
  tools: z.array(z.string().min(1)).default([]),
  /** External agents this agent may delegate to with `a2a_send`, besides the `trusted` ones. */
  delegates: z.array(nameSchema).default([]),
});

export const configSchema = z
  .strictObject({
    server: z
      .strictObject({
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).default(8080),
        body_limit_bytes: z
          .number()
          .int()
          .positive()
          .default(10 * MB),
        public_url: z.url().optional(),
        trust_proxy: z.boolean().default(false),
        shutdown_timeout_secs: z.number().positive().default(25),
        /** A request whose headers have not all arrived this long after it began is answered 408 and its connection closed. */
        headers_timeout_ms: z.number().int().positive().default(10_000),
        /** A request (headers and body) not fully received this long after it began is answered 408 and its connection closed. */
        request_timeout_ms: z.number().int().positive().default(60_000),
        /** A kept-alive connection with no request for this long is closed; longer than load balancers' idle timeout (often 60 s). */
        keep_alive_timeout_ms: z.number().int().positive().default(72_000),
        /** Connections beyond this many open at once are closed as they arrive. */
        max_connections: z.number().int().positive().default(4096),
      })
      .refine((server) => server.headers_timeout_ms <= server.request_timeout_ms, {
        path: ['headers_timeout_ms'],
        message: 'must not exceed server.request_timeout_ms (the headers are part of the request)',
      })
      .prefault({}),
    auth: authSchema,
    rate_limit: z
      .strictObject({
        enabled: z.boolean().default(true),
        limit: z.number().int().positive().default(600),
        window_secs: z.number().positive().default(60),
      })
      .prefault({}),
    database: z.strictObject({ url: databaseUrlSchema.optional() }).prefault({}),
    redis: z
      .strictObject({
        url: redisUrlSchema.optional(),
        key_prefix: z.string().default('switchboard:'),
      })
      .prefault({}),
    tasks: z
      .strictObject({
        max_tasks: z.number().int().positive().default(100_000),
        ttl_secs: z
          .number()
          .int()
          .positive()
          .default(7 * 24 * 3600),
        retention_interval_secs: z.number().int().positive().default(300),
        event_stream_max_len: z.number().int().positive().default(10_000),
        /** How long a turn retries a failed write of its task (Postgres) or events (Redis) before the turn fails. */
        write_retry_secs: z.number().positive().default(60),
        /**
         * How often active tasks are checked for a turn that is neither queued nor running (a lost
         * enqueue, a turn that failed to record its end): one not updated for this long is failed.
         */
        orphan_sweep_secs: z.number().int().positive().default(60),
      })
      .prefault({}),
    catalog: catalogSettingsSchema,
    audit: z
      .strictObject({
        /** Audit entries older than this are removed. */
        retention_days: z.number().int().positive().default(365),
      })
      .prefault({}),
    queue: z
      .strictObject({
        worker_in_api: z.boolean().default(true),
        /**
         * Turns run at once per worker process. Turns mostly wait (on a model, a tool, a remote agent),
         * and a worker taking only a few at a time leaves its queue waiting while it idles.
         */
        concurrency: z.number().int().positive().default(32),
        /** A turn whose worker stops renewing its lock for this long (crash, kill -9) counts as stalled. */
        lock_duration_ms: z.number().int().positive().default(30_000),
        /** How often workers look for stalled turns; a stalled turn's task is failed, not re-run. */
        stalled_interval_ms: z.number().int().positive().default(30_000),
        /** A `switchboard worker` serves `/healthz` and `/readyz` on this port (on `server.host`) for orchestrators' probes; none when unset. */
        health_port: z.number().int().min(1).max(65535).optional(),
      })
      .prefault({}),
    log: logSchema,
    mcp_servers: z.array(mcpServerSchema).default([]),
    a2a: z
      .strictObject({
        enabled: z.boolean().default(true),
        listen_path: z.string().startsWith('/').default('/a2a'),
        external_agents: z.array(externalAgentSchema).default([]),
        /** ARDF `subagent@v0.1` manifest files (`*` and `?` match within a file name); each adds an external agent. */
        subagent_manifests: z.array(z.string().min(1)).default([]),
        client: a2aClientSettingsSchema.prefault({}),
        /** The agent served at `/a2a` and `/.well-known/agent-card.json`; the first configured one when unset. */
        default_agent: nameSchema.optional(),
        /** Prefix of the HTTP+JSON (REST) binding: `{rest_path}/message:send`, `{rest_path}/v1/...` for v0.3. */
        rest_path: z.string().startsWith('/').default('/a2a/rest'),
        /** Serve v0.3 clients (requests without an `A2A-Version` header) beside v1.0. */
        legacy_compat: z.boolean().default(true),
        /**
         * How long a blocking send waits for its turn to end; past it, the call answers with the task as
         * it stands (not yet ended) and the turn goes on.
         */
        blocking_timeout_secs: z.number().positive().default(120),
        /** How long a cancel waits for the running turn to stop before the task is marked canceled anyway. */
        cancel_grace_ms: z.number().int().positive().default(2_000),
        /** A message (sent over A2A, or to an agent through `/mcp`) with more parts is refused as invalid params. */
        max_message_parts: z.number().int().positive().default(1_000),
        /** A message whose text parts hold more characters in all is refused as invalid params. */
        max_message_text_chars: z.number().int().positive().default(1_000_000),
        /** The gRPC binding, on a port of its own (HTTP/2): off unless `port` is set. */
        grpc: z
          .strictObject({
            /** Serve A2A over gRPC on this port, on `server.host`: v1.0 to every agent (the agent's name as the request's `tenant`), v0.3 to the default agent. */
            port: z.number().int().min(1).max(65535).optional(),
            /** The address clients dial, as the cards list it (`host:port`); `server.public_url`'s host (else `server.host`) and `port` when unset. */
            public_address: z.string().min(1).optional(),
            /** TLS with these PEM files; plaintext when unset (behind a proxy that ends TLS, say). */
            tls: z.strictObject({ cert_file: z.string().min(1), key_file: z.string().min(1) }).optional(),
          })
          .prefault({}),
        push: z
          .strictObject({
            timeout_ms: z.number().int().positive().default(10_000),
            max_attempts: z.number().int().positive().default(5),
            backoff_ms: z.number().int().positive().default(1_000),
          })
          .prefault({}),
      })
      .prefault({}),
    mcp_server: z
      .strictObject({
        /** Serve the hosted agents and connected MCP tools as an MCP server at `/mcp` (needs `a2a.enabled`). */
        enabled: z.boolean().default(true),
        /**
         * Hostnames (no port; IPv6 in brackets) whose Host header `/mcp` accepts, against DNS rebinding.
         * Loopback names, `server.host` and `server.public_url`'s host are always accepted.
         */
        allowed_hosts: z.array(z.string().min(1)).default([]),
        /** Browser Origin hostnames accepted at `/mcp`; loopback and `server.public_url`'s are always. Requests without Origin pass. */
        allowed_origins: z.array(z.string().min(1)).default([]),
        /** A 2025-era client's session (Mcp-Session-Id) ends after this long without a request. */
        session_ttl_secs: z.number().int().positive().default(3600),
        /** How often MCP task callers are asked to poll a task (`pollInterval`). */
        task_poll_interval_ms: z.number().int().positive().default(1_000),
      })
      .prefault({}),
    outbound: z
      .strictObject({
        /**
         * Hosts (`name`, `name:port`, an IP or a CIDR) that outbound requests (webhooks, A2A and MCP
         * servers) may reach even though they resolve to private, loopback or link-local addresses.
         * Cloud metadata endpoints stay blocked regardless.
         */
        allow_hosts: z.array(z.string()).default([]),
      })
      .prefault({}),
    tools: z
      .strictObject({
        /** A tool call that has not answered after this long ends with an error result for the model. */
        timeout_secs: z.number().positive().default(60),
        /** Longer tool results are cut, with a marker saying so. */
        max_result_chars: z.number().int().positive().default(50_000),
      })
      .prefault({}),
    agents: z.array(agentSchema).default([]),
    tracing: tracingSchema,
  })
  .superRefine((config, ctx) => {
    const names = uniqueNames(config.agents, 'agents', 'agent', ctx);
    uniqueAgentToolNames(config.agents, ctx);
    uniqueNames(config.mcp_servers, 'mcp_servers', 'MCP server', ctx);
    const fallback = config.agents.length === 0 ? DEMO_AGENT_NAME : undefined;
    const wanted = config.a2a.default_agent;
    if (wanted !== undefined && !names.has(wanted) && wanted !== fallback) {
      ctx.addIssue({
        code: 'custom',
        path: ['a2a', 'default_agent'],
        message: `no agent named "${wanted}" is configured`,
      });
    }
  });

/** Agents are MCP tools named after them with hyphens as underscores: two names must not make one tool. */
function uniqueAgentToolNames(agents: { name: string }[], ctx: z.RefinementCtx): void {
  const byToolName = new Map<string, string>();
  agents.forEach((agent, index) => {
    const taken = byToolName.get(toolNamePart(agent.name));
    if (taken !== undefined && taken !== agent.name) {
      ctx.addIssue({
        code: 'custom',
        path: ['agents', index, 'name'],
        message: `agents "${taken}" and "${agent.name}" would be the same MCP tool (hyphens become underscores)`,
      });
    }
    byToolName.set(toolNamePart(agent.name), agent.name);
  });
}

/** Reports every repeated name in `items` (at `section[i].name`); returns the names seen. */
function uniqueNames(items: { name: string }[], section: string, what: string, ctx: z.RefinementCtx): Set<string> {
  const names = new Set<string>();
  items.forEach((item, index) => {
    if (names.has(item.name))
      ctx.addIssue({
        code: 'custom',
        path: [section, index, 'name'],
        message: `duplicate ${what} name "${item.name}"`,
      });
    names.add(item.name);
  });
  return names;
}

/**
 * An `[[mcp_servers]]` entry as the loader hands it on. For a stdio server, `env_values` holds the
 * values of PATH and of `env`'s variables that are set, read from the environment at boot; it is no
 * file key, so the file schema does not know it and refuses it as unknown.
 */
export type McpServerConfig = z.infer<typeof mcpServerSchema> & { env_values?: Record<string, string> };
/**
 * An external A2A agent as the loader hands it on: from `[[a2a.external_agents]]` or an ARDF manifest
 * (`manifest`), with its client certificate's PEM read from the files `tls` names (or the manifest's values).
 */
export type ExternalAgentConfig = ExternalAgentSettings & {
  client_certificate?: { cert: string; key: string; ca?: string };
  manifest?: SubagentManifest;
};
type ParsedConfig = z.infer<typeof configSchema>;
/** The validated config, as the loader resolves it from the file and the environment. */
export type SwitchboardConfig = Omit<ParsedConfig, 'mcp_servers' | 'a2a'> & {
  /** The file the loader read (no file key): where the catalog's file entries are changed. */
  source_file?: string;
  mcp_servers: McpServerConfig[];
  a2a: Omit<ParsedConfig['a2a'], 'external_agents'> & { external_agents: ExternalAgentConfig[] };
};
export type AgentConfig = SwitchboardConfig['agents'][number];
/** An agent as its card and lists describe it: all that is configured but how its turns run. */
export type AgentProfile = Omit<AgentConfig, 'executor'>;
