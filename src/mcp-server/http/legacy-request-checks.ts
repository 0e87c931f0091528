import { PROTOCOL_VERSION_META_KEY, specTypeSchemas, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { isRequestMessage } from '../json-rpc-shapes';

/** The first revision without JSON-RPC batches. */
const BATCHLESS_SINCE = '2025-06-18';
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;
/** Enough issues to fix a request, few enough to read. */
const MAX_ISSUES = 3;

/** The 2025-era requests `/mcp` serves, by method, with the spec's schema of each. */
const REQUEST_SCHEMAS: Record<string, StandardSchemaV1> = {
  initialize: specTypeSchemas.InitializeRequest,
  ping: specTypeSchemas.PingRequest,
  'logging/setLevel': specTypeSchemas.SetLevelRequest,
  'tools/list': specTypeSchemas.ListToolsRequest,
  'tools/call': specTypeSchemas.CallToolRequest,
  'resources/list': specTypeSchemas.ListResourcesRequest,
  'resources/templates/list': specTypeSchemas.ListResourceTemplatesRequest,
  'resources/read': specTypeSchemas.ReadResourceRequest,
  'resources/subscribe': specTypeSchemas.SubscribeRequest,
  'resources/unsubscribe': specTypeSchemas.UnsubscribeRequest,
};

/**
 * What the SDK's 2025-era serving would answer wrongly, answered before it: a JSON-RPC batch under a
 * revision that removed them (the SDK serves it), and params that do not fit the method (the SDK
 * answers -32603 with the schema's whole error dump, where the spec asks -32602). Undefined when the
 * request may go on.
 */
export async function refusedLegacyRequest(request: Request, body: unknown): Promise<Response | undefined> {
  if (Array.isArray(body)) return batchRefusal(request.headers.get('mcp-protocol-version'));
  if (!isRequestMessage(body) || isModern(body)) return undefined;
  const schema = REQUEST_SCHEMAS[body.method];
  const outcome = schema && (await schema['~standard'].validate(body));
  if (!outcome?.issues) return undefined;
  const issues = outcome.issues
    .slice(0, MAX_ISSUES)
    .map(
      ({ path, message }) =>
        `${(path ?? []).map((key) => (typeof key === 'object' ? key.key : key)).join('.')}: ${message}`,
    );
  return Response.json({
    jsonrpc: '2.0',
    id: body.id,
    error: { code: INVALID_PARAMS, message: `Invalid params for ${body.method}: ${issues.join('; ')}` },
  });
}

/** A client that negotiated 2025-06-18 or later names it in every request's header; older ones may still batch. */
function batchRefusal(version: string | null): Response | undefined {
  if (version === null || version < BATCHLESS_SINCE) return undefined;
  const message = `JSON-RPC batches are not supported in protocol version ${version} (removed in ${BATCHLESS_SINCE}): send one message per request`;
  return Response.json({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST, message } }, { status: 400 });
}

/** A 2026-07-28 request carries its revision in `_meta`; the SDK's modern path validates it. */
function isModern(request: { params?: { _meta?: Record<string, unknown> } }): boolean {
  return request.params?._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}
