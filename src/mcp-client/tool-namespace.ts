import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { McpTool } from './mcp-tool-source.interface';

/** LLM providers reject tool names longer than this or outside `[a-zA-Z0-9_-]`. */
export const MAX_TOOL_NAME_LENGTH = 64;
const ACCEPTED_NAME = new RegExp(`^[a-zA-Z0-9_-]{1,${MAX_TOOL_NAME_LENGTH}}$`);
const HASH_LENGTH = 8;

/** A tool left out because an earlier one (in config order, then the server's order) already has its name. */
export interface ToolNameCollision {
  name: string;
  server: string;
  tool: string;
  takenBy: { server: string; tool: string };
}

/**
 * `mcp_{server}_{tool}`, lowercase, hyphens as underscores (the OpenFang seed's rule). A result that
 * LLM providers would refuse is made acceptable deterministically: other characters become `_`, and
 * a name that is still too long is cut and ends in a hash of the original pair, so the same tool
 * keeps the same name across restarts and two long names sharing a prefix stay apart.
 */
export function namespacedToolName(server: string, tool: string): string {
  const name = `${toolNamePrefix(server)}${normalize(tool)}`;
  if (ACCEPTED_NAME.test(name)) return name;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, HASH_LENGTH);
  const safe = name.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `${safe.slice(0, MAX_TOOL_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/** What the names of `server`'s tools start with (`mcp_{server}_`), before any cut for length. */
export function toolNamePrefix(server: string): string {
  return `mcp_${normalize(server)}_`;
}

/**
 * Namespaces the tools of every server, in the order given. A name already taken is reported as a
 * collision and its tool left out: a tool is never silently replaced by another.
 */
export function namespaceTools(servers: { server: string; tools: Tool[] }[]): {
  tools: McpTool[];
  collisions: ToolNameCollision[];
} {
  const { named, collisions } = namespaceNames(servers.map(({ server, tools }) => ({ server, items: tools })));
  const tools = named.map(({ name, server, item: tool }) => ({
    name,
    description: `[MCP:${server}] ${tool.description ?? tool.title ?? tool.name}`,
    inputSchema: tool.inputSchema,
    ...(tool.title !== undefined && { title: tool.title }),
    ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    ...(tool.outputSchema !== undefined && { outputSchema: tool.outputSchema }),
    server,
    serverToolName: tool.name,
  }));
  return { tools, collisions };
}

/** Items (tools, prompts) of every server under `mcp_{server}_{name}`, in the order given; a name already taken is a collision, left out. */
export function namespaceNames<T extends { name: string }>(
  servers: { server: string; items: T[] }[],
): { named: { name: string; server: string; item: T }[]; collisions: ToolNameCollision[] } {
  const byName = new Map<string, { name: string; server: string; item: T }>();
  const collisions: ToolNameCollision[] = [];
  for (const { server, items } of servers) {
    for (const item of items) {
      const name = namespacedToolName(server, item.name);
      const taken = byName.get(name);
      if (taken)
        collisions.push({ name, server, tool: item.name, takenBy: { server: taken.server, tool: taken.item.name } });
      else byName.set(name, { name, server, item });
    }
  }
  return { named: [...byName.values()], collisions };
}

function normalize(part: string): string {
  return part.toLowerCase().replace(/-/g, '_');
}
