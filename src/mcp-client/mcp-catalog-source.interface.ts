import type {
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
} from '@modelcontextprotocol/client';

export const MCP_CATALOG_SOURCE = Symbol('MCP_CATALOG_SOURCE');

/**
 * The resources, resource templates and prompts of the connected MCP servers, namespaced like their
 * tools: resource URIs (and templates) as `mcp://{server}/{uri}`, prompt and template names as
 * `mcp_{server}_{name}`. Requests take namespaced names and URIs and answer with namespaced ones.
 */
export interface McpCatalogSource {
  resources(): Resource[];
  resourceTemplates(): ResourceTemplateType[];
  prompts(): Prompt[];
  /** Whether a connected server declared `capability` (`prompts`, `completions`, `logging`, ...). */
  declares(capability: keyof ServerCapabilities): boolean;
  /** Throws McpUnknownResourceError for a URI that names no connected server. */
  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult>;
  /** Throws McpUnknownPromptError. */
  getPrompt(name: string, args: Record<string, string> | undefined, signal?: AbortSignal): Promise<GetPromptResult>;
  /** Whether `uri` is a resource of a connected server that offers subscriptions. */
  subscribable(uri: string): boolean;
  /** Subscribes to a resource: resolves once subscribed, then calls `onUpdated` on each change until `signal` aborts. Throws McpUnknownResourceError. */
  followResource(uri: string, onUpdated: () => void, signal: AbortSignal): Promise<void>;
  /** A completion for a namespaced prompt or resource template; throws McpUnknownPromptError or McpUnknownResourceError. */
  complete(params: CompleteRequestParams, signal?: AbortSignal): Promise<CompleteResult>;
}
