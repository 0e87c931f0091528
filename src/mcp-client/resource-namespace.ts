import type { ContentBlock } from '@modelcontextprotocol/client';

const SCHEME = 'mcp://';

/**
 * An upstream server's resource URI (or URI template) as `/mcp` offers it: `mcp://{server}/{uri}`,
 * the server's URI kept whole after the first `/`. Server names have no `/` (nor `{`), so the
 * first `/` after the server ends it, a template stays a template, and the way back is exact.
 */
export function namespacedUri(server: string, uri: string): string {
  return `${SCHEME}${server}/${uri}`;
}

/** The server and its own URI that a namespaced URI names; undefined for any other URI. */
export function upstreamUri(uri: string): { server: string; uri: string } | undefined {
  if (!uri.startsWith(SCHEME)) return undefined;
  const end = uri.indexOf('/', SCHEME.length);
  if (end <= SCHEME.length) return undefined;
  return { server: uri.slice(SCHEME.length, end), uri: uri.slice(end + 1) };
}

/** A content block with the resource URIs it carries namespaced, so a client can read them through `/mcp`. */
export function withNamespacedUris<T extends ContentBlock>(server: string, block: T): T {
  if (block.type === 'resource_link') return { ...block, uri: namespacedUri(server, block.uri) };
  if (block.type === 'resource')
    return { ...block, resource: { ...block.resource, uri: namespacedUri(server, block.resource.uri) } };
  return block;
}
