import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SwitchboardConfig } from './config.schema';
import type { Environment } from './variable-references';
import { loadSubagentManifests } from './subagent-manifests.loader';

interface ResolveContext {
  env: Environment;
  /** Relative manifest and certificate paths start here: the config file's directory. */
  baseDir: string;
}

/**
 * Completes `a2a.external_agents` at boot: the agents of ARDF manifests join the configured ones,
 * client certificates are read from their files, and every name an agent refers to must exist.
 */
export function resolveExternalAgents(
  config: SwitchboardConfig,
  { env, baseDir }: ResolveContext,
  problems: string[],
): void {
  const a2a = config.a2a;
  a2a.external_agents.forEach((agent, index) => {
    if (!agent.tls) return;
    const read = (key: 'cert_file' | 'key_file' | 'ca_file') =>
      readPem(resolve(baseDir, agent.tls![key]!), `a2a.external_agents[${index}].tls.${key}`, problems);
    agent.client_certificate = {
      cert: read('cert_file'),
      key: read('key_file'),
      ...(agent.tls.ca_file && { ca: read('ca_file') }),
    };
  });
  a2a.external_agents.push(...loadSubagentManifests(a2a.subagent_manifests, baseDir, env, problems));
  checkNames(config, problems);
}

function readPem(path: string, key: string, problems: string[]): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    problems.push(`${key}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    return '';
  }
}

/** External agents and hosted agents share one namespace (`a2a-agent://{name}`); references must resolve. */
function checkNames(config: SwitchboardConfig, problems: string[]): void {
  const hosted = new Set(config.agents.map((agent) => agent.name));
  const external = new Map<string, number>();
  config.a2a.external_agents.forEach((agent, index) => {
    const where = agent.manifest
      ? `a2a.subagent_manifests: manifest "${agent.name}"`
      : `a2a.external_agents[${index}].name`;
    if (external.has(agent.name)) problems.push(`${where}: duplicate external agent name "${agent.name}"`);
    else if (hosted.has(agent.name)) problems.push(`${where}: "${agent.name}" is also the name of a hosted agent`);
    external.set(agent.name, index);
  });
  config.agents.forEach((agent, index) => {
    agent.delegates.forEach((name, position) => {
      if (!external.has(name))
        problems.push(`agents[${index}].delegates[${position}]: no external agent named "${name}"`);
    });
    if (agent.executor.type === 'a2a' && !external.has(agent.executor.agent)) {
      problems.push(`agents[${index}].executor.agent: no external agent named "${agent.executor.agent}"`);
    }
  });
}
