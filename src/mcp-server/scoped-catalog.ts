import type { CompleteRequestParams } from '@modelcontextprotocol/server';
import type { McpCatalogSource } from '../mcp-client/mcp-catalog-source.interface';
import { McpUnknownPromptError, McpUnknownResourceError } from '../mcp-client/mcp-client.errors';
import { upstreamUri } from '../mcp-client/resource-namespace';
import { toolNamePrefix } from '../mcp-client/tool-namespace';
import type { AccessScope } from '../security/access-scope';

/**
 * The connected servers' resources and prompts as a caller with `scope` sees them. Prompts are named
 * like tools (`mcp_{server}_{prompt}`) and follow the key's `tools` patterns; a server's resources
 * and templates are offered only to a key whose patterns cover all of that server's tools
 * (`mcp_{server}_*`). What is hidden is also unknown: reading, getting, completing or subscribing
 * to it fails as for a name no server offers.
 */
export function scopedCatalog(catalog: McpCatalogSource, scope: AccessScope): McpCatalogSource {
  const allowsUri = (uri: string) => {
    const upstream = upstreamUri(uri);
    return upstream !== undefined && scope.allowsTool(`${toolNamePrefix(upstream.server)}*`);
  };
  const allowsPrompt = (name: string) => scope.allowsTool(name);
  const allowsReference = (ref: CompleteRequestParams['ref']) =>
    ref.type === 'ref/prompt' ? allowsPrompt(ref.name) : allowsUri(ref.uri);
  const unknownUri = (uri: string) => Promise.reject(new McpUnknownResourceError(uri));
  return {
    resources: () => catalog.resources().filter((resource) => allowsUri(resource.uri)),
    resourceTemplates: () => catalog.resourceTemplates().filter((template) => allowsUri(template.uriTemplate)),
    prompts: () => catalog.prompts().filter((prompt) => allowsPrompt(prompt.name)),
    declares: (capability) => catalog.declares(capability),
    readResource: (uri, signal) => (allowsUri(uri) ? catalog.readResource(uri, signal) : unknownUri(uri)),
    getPrompt: (name, args, signal) =>
      allowsPrompt(name) ? catalog.getPrompt(name, args, signal) : Promise.reject(new McpUnknownPromptError(name)),
    subscribable: (uri) => allowsUri(uri) && catalog.subscribable(uri),
    followResource: (uri, onUpdated, signal) =>
      allowsUri(uri) ? catalog.followResource(uri, onUpdated, signal) : unknownUri(uri),
    complete: (params, signal) =>
      allowsReference(params.ref)
        ? catalog.complete(params, signal)
        : Promise.reject(
            params.ref.type === 'ref/prompt'
              ? new McpUnknownPromptError(params.ref.name)
              : new McpUnknownResourceError(params.ref.uri),
          ),
  };
}
