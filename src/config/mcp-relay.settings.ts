import { z } from 'zod';
import { ConfigError } from './config-error';
import type { Environment } from './config.loader';
import { logSchema, type SwitchboardConfig } from './config.schema';
import { ENV_OVERRIDES } from './env-overrides';

/**
 * `switchboard mcp`'s own settings, from the `env` of an IDE's `mcpServers` entry: a client sets
 * them like arguments, so they are not config-file keys.
 */
export interface StdioRelaySettings {
  /** Base URL of a running Switchboard to relay to, without trailing slashes; unset, the agents run in-process. */
  url?: string;
  /** Sent to that Switchboard as a bearer token. */
  apiKey?: string;
  /** How a relay logs: the server's LOG_LEVEL and SWITCHBOARD_LOG_PRETTY, always on stderr (stdout carries the protocol). */
  log: SwitchboardConfig['log'];
}

const relayEnvSchema = z.object({
  SWITCHBOARD_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL, such as http://127.0.0.1:8080' })
    .optional(),
  SWITCHBOARD_API_KEY: z.string().optional(),
});

/** Reads and checks SWITCHBOARD_URL and SWITCHBOARD_API_KEY; an empty one counts as unset. */
export function loadStdioRelaySettings(env: Environment = process.env): StdioRelaySettings {
  const result = relayEnvSchema.safeParse({
    SWITCHBOARD_URL: env.SWITCHBOARD_URL || undefined,
    SWITCHBOARD_API_KEY: env.SWITCHBOARD_API_KEY || undefined,
  });
  const logOverrides = ENV_OVERRIDES.filter(({ path, env: name }) => path[0] === 'log' && env[name]);
  const log = logSchema.safeParse({
    ...Object.fromEntries(logOverrides.map(({ path, env: name, parse }) => [path[1], parse(env[name]!)])),
    destination: 'stderr',
  });
  const problems = [
    ...(result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? []),
    ...(log.error?.issues.map(
      (issue) => `${logOverrides.find(({ path }) => path[1] === issue.path[0])?.env ?? 'log'}: ${issue.message}`,
    ) ?? []),
  ];
  if (problems.length > 0) throw new ConfigError('environment', problems);
  return {
    url: result.data!.SWITCHBOARD_URL?.replace(/\/+$/, ''),
    apiKey: result.data!.SWITCHBOARD_API_KEY,
    log: log.data!,
  };
}
