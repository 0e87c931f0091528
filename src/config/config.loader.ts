import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { allowHostProblems } from './allow-hosts';
import { apiKeyProblems } from './api-keys';
import { ConfigError } from './config-error';
import { configSchema, type SwitchboardConfig } from './config.schema';
import { CONFIG_FILE_ENV, ENV_OVERRIDES } from './env-overrides';
import { resolveReferences } from './variable-references';
import { schemaProblems } from './schema-problems';
import { resolveLlmApiKey, resolveStdioEnv } from './environment-values';
import { resolveExternalAgents } from './external-agents.config';

import type { Environment } from './variable-references';

export type { Environment };

const DEFAULT_CONFIG_FILE = 'switchboard.toml';

export interface LoadedConfig {
  config: SwitchboardConfig;
  /** The file the config came from, or undefined when only defaults and env were used. */
  file?: string;
}

/**
 * Builds the one validated config object: optional TOML file, then `${VAR}` references resolved,
 * then environment overrides, then the schema. Any problem throws a ConfigError naming the key.
 */
export function loadConfig(env: Environment = process.env): LoadedConfig {
  const file = locateConfigFile(env);
  const raw = file ? readToml(file) : {};
  const problems: string[] = [];
  const resolved = resolveReferences(raw, [], env, problems) as Record<string, unknown>;
  const envKeys = applyEnvOverrides(resolved, env);
  const result = configSchema.safeParse(resolved);
  if (!result.success) {
    // The longest path wins: an entry a variable appended (`auth.api_keys[2]`) over the list another set.
    const sourceOf = (key: string) => {
      const fromEnv = [...envKeys]
        .filter(([path]) => key === path || key.startsWith(`${path}[`) || key.startsWith(`${path}.`))
        .sort(([a], [b]) => b.length - a.length)[0];
      return fromEnv ? ` (from ${fromEnv[1]})` : '';
    };
    problems.push(...schemaProblems(result.error.issues, [], sourceOf));
  }
  if (result.success) {
    problems.push(...apiKeyProblems(result.data.auth.api_keys), ...allowHostProblems(result.data.outbound.allow_hosts));
    resolveApiKeys(result.data, env, problems);
    resolveMcpServerEnv(result.data, env);
    resolveExternalAgents(result.data, { env, baseDir: file ? dirname(file) : process.cwd() }, problems);
  }
  if (problems.length > 0) throw new ConfigError(file ?? 'environment', problems);
  return { config: { ...result.data!, ...(file && { source_file: file }) }, file };
}

function locateConfigFile(env: Environment): string | undefined {
  const explicit = env[CONFIG_FILE_ENV];
  if (explicit) {
    const path = resolve(explicit);
    if (!existsSync(path)) throw new ConfigError(CONFIG_FILE_ENV, [`${CONFIG_FILE_ENV}: file ${path} does not exist`]);
    return path;
  }
  const fallback = resolve(DEFAULT_CONFIG_FILE);
  return existsSync(fallback) ? fallback : undefined;
}

function readToml(file: string): Record<string, unknown> {
  try {
    return parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(file, [`not valid TOML: ${(error as Error).message}`]);
  }
}

/** An LLM agent names its key's environment variable (`api_key_env`); the key itself is read here. */
function resolveApiKeys(config: SwitchboardConfig, env: Environment, problems: string[]): void {
  config.agents.forEach((agent, index) => resolveLlmApiKey(agent, `agents[${index}]`, env, problems));
}

function resolveMcpServerEnv(config: SwitchboardConfig, env: Environment): void {
  for (const server of config.mcp_servers) resolveStdioEnv(server, env);
}

/** Returns which config keys were set from which environment variable, for error messages. */
function applyEnvOverrides(target: Record<string, unknown>, env: Environment): Map<string, string> {
  const applied = new Map<string, string>();
  for (const override of ENV_OVERRIDES) {
    const raw = env[override.env];
    if (raw === undefined || raw === '') continue;
    let node = target;
    for (const segment of override.path.slice(0, -1)) {
      if (!node[segment] || typeof node[segment] !== 'object') node[segment] = {};
      node = node[segment] as Record<string, unknown>;
    }
    const last = override.path[override.path.length - 1];
    const value = override.parse(raw);
    if (override.append && Array.isArray(value)) {
      const list = Array.isArray(node[last]) ? (node[last] as unknown[]) : (node[last] = []);
      for (const entry of value) applied.set(`${override.path.join('.')}[${list.push(entry) - 1}]`, override.env);
    } else {
      node[last] = value;
      applied.set(override.path.join('.'), override.env);
    }
  }
  return applied;
}
