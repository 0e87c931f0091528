import type { z } from 'zod';
import { accessRuleSchema, storedKeySchema } from '../config/auth.schema';
import { agentSchema, mcpServerSchema } from '../config/config.schema';
import { externalAgentSchema } from '../config/external-agent.schema';
import type { CatalogKind } from './catalog-store.interface';

export interface CatalogKindSpec {
  kind: CatalogKind;
  /** Its admin API path segment: `/api/admin/{path}`. */
  path: string;
  /** Its audit targets: `{target}:{name}`. */
  target: string;
  /** Where the file holds its entries. */
  fileSection: string;
  /** Stored bodies are valid by it (a key's holds its digest). */
  schema: z.ZodType;
}

/** In the order the catalog resolves them: agents refer to external agents. */
export const CATALOG_KINDS: readonly CatalogKindSpec[] = [
  {
    kind: 'external_agents',
    path: 'external-agents',
    target: 'external_agent',
    fileSection: '[[a2a.external_agents]]',
    schema: externalAgentSchema,
  },
  {
    kind: 'mcp_servers',
    path: 'mcp-servers',
    target: 'mcp_server',
    fileSection: '[[mcp_servers]]',
    schema: mcpServerSchema,
  },
  { kind: 'agents', path: 'agents', target: 'agent', fileSection: '[[agents]]', schema: agentSchema },
  { kind: 'keys', path: 'keys', target: 'key', fileSection: '[[auth.api_keys]]', schema: storedKeySchema },
  { kind: 'rules', path: 'rules', target: 'rule', fileSection: '[[auth.rules]]', schema: accessRuleSchema },
];

export function kindSpec(kind: CatalogKind): CatalogKindSpec {
  return CATALOG_KINDS.find((spec) => spec.kind === kind)!;
}
