import {
  type McpServer,
  ProtocolError,
  type ServerCapabilities,
  ProtocolErrorCode,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server';
import { McpUnknownPromptError, McpUnknownResourceError } from '../../mcp-client/mcp-client.errors';
import type { McpCatalogSource } from '../../mcp-client/mcp-catalog-source.interface';

/**
 * The capabilities `/mcp` adds for what connected servers offer besides tools: `prompts` and
 * `completions` when one of them declared it (resources are always offered, by the bridge). Fixed
 * when a server instance is made, as capabilities must be.
 */
export function upstreamCatalogCapabilities(
  catalog: McpCatalogSource,
): Pick<ServerCapabilities, 'prompts' | 'completions'> {
  return {
    ...(catalog.declares('prompts') && { prompts: { listChanged: true } }),
    ...(catalog.declares('completions') && { completions: {} }),
  };
}

/**
 * Offers the connected servers' resources and resource templates (namespaced `mcp://{server}/{uri}`)
 * beside Switchboard's own, through the SDK's resource registry; prompts and completions, which
 * Switchboard has none of its own, are passed through as they are asked for. Returns what was
 * registered, for a live server to replace when the catalog changes.
 */
export function registerUpstreamCatalog(
  server: McpServer,
  catalog: McpCatalogSource,
): (RegisteredResource | RegisteredResourceTemplate)[] {
  const read = (uri: string, signal: AbortSignal) => catalog.readResource(uri, signal).catch(asProtocolError);
  const resources = catalog
    .resources()
    .map(({ uri, name, ...metadata }) =>
      server.registerResource(name, uri, metadata, (_uri, ctx) => read(uri, ctx.mcpReq.signal)),
    );
  const templates = catalog
    .resourceTemplates()
    .map(({ uriTemplate, name, ...metadata }) =>
      server.registerResource(
        name,
        new ResourceTemplate(uriTemplate, { list: undefined }),
        metadata,
        (uri, _variables, ctx) => read(uri.href, ctx.mcpReq.signal),
      ),
    );
  const capabilities = server.server.getCapabilities();
  if (capabilities.prompts) {
    server.server.setRequestHandler('prompts/list', () => ({ prompts: catalog.prompts() }));
    server.server.setRequestHandler('prompts/get', (request, ctx) =>
      catalog.getPrompt(request.params.name, request.params.arguments, ctx.mcpReq.signal).catch(asProtocolError),
    );
  }
  if (capabilities.completions) {
    server.server.setRequestHandler('completion/complete', (request, ctx) =>
      catalog.complete(request.params, ctx.mcpReq.signal).catch(asProtocolError),
    );
  }
  return [...resources, ...templates];
}

/** A name or URI that no connected server offers is the caller's error, in the protocol's own form. */
function asProtocolError(error: unknown): never {
  if (error instanceof McpUnknownResourceError) throw new ResourceNotFoundError(error.uri);
  if (error instanceof McpUnknownPromptError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
  throw error;
}
