import type { AgentConfig, McpServerConfig } from './config.schema';
import type { Environment } from './variable-references';

/** An LLM agent's key, read from the variable its `api_key_env` names; a problem at `path` when that is not set. */
export function resolveLlmApiKey(agent: AgentConfig, path: string, env: Environment, problems: string[]): void {
  const { executor } = agent;
  if (executor.type !== 'llm' || executor.api_key_env === undefined) return;
  const key = env[executor.api_key_env];
  if (key) executor.api_key = key;
  else problems.push(`${path}.executor.api_key_env: environment variable ${executor.api_key_env} is not set`);
}

/**
 * A stdio MCP server's process sees PATH and the variables its `env` whitelists, nothing else of
 * Switchboard's environment; their values are read here, when the server enters the catalog. Unset ones are left out.
 */
export function resolveStdioEnv(server: McpServerConfig, env: Environment): void {
  if (server.transport.type !== 'stdio') return;
  server.env_values = {};
  for (const name of ['PATH', ...server.env]) {
    const value = env[name];
    if (value !== undefined) server.env_values[name] = value;
  }
}
