import type { AgentConfig, McpServerConfig } from '../config/config.schema';
import { resolveLlmApiKey, resolveStdioEnv } from '../config/environment-values';
import type { Catalog, CatalogKey } from '../config/live-catalog';
import { toolNamePart } from '../config/names.schema';
import { schemaProblems } from '../config/schema-problems';
import { type Environment, resolveReferences } from '../config/variable-references';
import { CATALOG_KINDS } from './catalog-kinds';
import { openSecrets } from './catalog-secrets';
import type { CatalogKind, StoredEntry } from './catalog-store.interface';
import type { SecretCipher } from './secret-cipher';

export interface BuiltCatalog {
  catalog: Catalog;
  /** Each names its entry and key (`agents.planner.delegates[0]: ...`); a catalog with any is not to be used. */
  problems: string[];
  /** The admin API's entries that a file entry of the same name hides (`mcp_servers.github`). */
  shadowed: string[];
}

export interface BuildContext {
  cipher?: SecretCipher;
  env: Environment;
}

/**
 * The catalog of the file's entries and the admin API's, resolved as the loader resolves the file's:
 * secrets opened, `${VAR}` references read, each entry parsed by the file's schema, references
 * between entries checked. A file entry wins a name over an API entry (which the file may have
 * gained since).
 */
export function buildCatalog(file: Catalog, entries: readonly StoredEntry[], context: BuildContext): BuiltCatalog {
  const problems: string[] = [];
  const shadowed: string[] = [];
  const parts = { ...file } as Record<CatalogKind, readonly { name: string }[]>;
  for (const { kind, schema } of CATALOG_KINDS) {
    const taken = new Set(parts[kind].map(({ name }) => name));
    const added: { name: string }[] = [];
    for (const entry of entries.filter((stored) => stored.kind === kind)) {
      if (taken.has(entry.name)) {
        shadowed.push(`${kind}.${entry.name}`);
        continue;
      }
      const prefix = `${kind}.${entry.name}`;
      const opened = openSecrets(kind, entry.body, context.cipher, prefix, problems);
      const resolved = resolveReferences(opened, [kind, entry.name], context.env, problems);
      const parsed = schema.safeParse(resolved);
      if (!parsed.success) {
        problems.push(...schemaProblems(parsed.error.issues, [kind, entry.name]));
        continue;
      }
      added.push(completed(kind, parsed.data as { name: string }, prefix, context.env, problems));
    }
    parts[kind] = [...parts[kind], ...added];
  }
  const catalog = parts as unknown as Catalog;
  problems.push(...referenceProblems(catalog));
  return { catalog, problems, shadowed };
}

/** What the loader adds to a parsed entry: an LLM key from its variable, a stdio server's environment, a key's expiry as a time. */
function completed(
  kind: CatalogKind,
  parsed: { name: string },
  prefix: string,
  env: Environment,
  problems: string[],
): { name: string } {
  if (kind === 'agents') resolveLlmApiKey(parsed as AgentConfig, prefix, env, problems);
  if (kind === 'mcp_servers') resolveStdioEnv(parsed as McpServerConfig, env);
  if (kind === 'keys') return catalogKeyOf(parsed as StoredKeyBody);
  return parsed;
}

interface StoredKeyBody {
  name: string;
  digest: string;
  expires_at?: string;
  tools?: string[];
  agents?: string[];
  admin?: boolean;
  metrics_only?: boolean;
}

function catalogKeyOf({ name, digest, expires_at, ...grant }: StoredKeyBody): CatalogKey {
  return { name, digest, grant, ...(expires_at !== undefined && { expires_at: new Date(expires_at) }) };
}

/** External and hosted agents share one namespace; agents' MCP tool names must differ; delegates and gateways must exist. */
function referenceProblems(catalog: Catalog): string[] {
  const problems: string[] = [];
  const external = new Set(catalog.external_agents.map(({ name }) => name));
  const toolNames = new Map<string, string>();
  for (const agent of catalog.agents) {
    if (external.has(agent.name))
      problems.push(`agents.${agent.name}.name: "${agent.name}" is also the name of an external agent`);
    const taken = toolNames.get(toolNamePart(agent.name));
    if (taken !== undefined)
      problems.push(
        `agents.${agent.name}.name: agents "${taken}" and "${agent.name}" would be the same MCP tool (hyphens become underscores)`,
      );
    toolNames.set(toolNamePart(agent.name), agent.name);
    agent.delegates.forEach((name, index) => {
      if (!external.has(name))
        problems.push(`agents.${agent.name}.delegates[${index}]: no external agent named "${name}"`);
    });
    if (agent.executor.type === 'a2a' && !external.has(agent.executor.agent))
      problems.push(`agents.${agent.name}.executor.agent: no external agent named "${agent.executor.agent}"`);
  }
  return problems;
}
