import { z } from 'zod';
import { ConfigError } from './config-error';
import type { Environment } from './config.loader';

/**
 * `switchboard mcp`'s own settings, from the `env` of an IDE's `mcpServers` entry: a client sets
 * them like arguments, so they are not config-file keys.
 */
export interface StdioRelaySettings {
  /** Base URL of a running Switchboard to relay to, without trailing slashes; unset, the agents run in-process. */
  url?: string;
  /** Sent to that Switchboard as a bearer token. */
  apiKey?: string;
}

const relayEnvSchema = z.object({
  SWITCHBOARD_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, such as http://127.0.0.1:8080' }).optional(),
  SWITCHBOARD_API_KEY: z.string().optional(),
});

/** Reads and checks SWITCHBOARD_URL and SWITCHBOARD_API_KEY; an empty one counts as unset. */
export function loadStdioRelaySettings(env: Environment = process.env): StdioRelaySettings {
  const result = relayEnvSchema.safeParse({
    SWITCHBOARD_URL: env.SWITCHBOARD_URL || undefined,
    SWITCHBOARD_API_KEY: env.SWITCHBOARD_API_KEY || undefined,
  });
  if (!result.success) {
    throw new ConfigError('environment', result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  return { url: result.data.SWITCHBOARD_URL?.replace(/\/+$/, ''), apiKey: result.data.SWITCHBOARD_API_KEY };
}
