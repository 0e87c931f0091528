/**
 * The ARDF bridge seed's examples frame MCP requests as `{"type":"request","method":...,"id":...}`
 * without `jsonrpc`. Such a body is read as the JSON-RPC 2.0 request it stands for (answered in
 * JSON-RPC, as the seed's own server, built on the MCP SDK, answered); anything else is left as is.
 */
export function fromSeedEnvelope(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const { type, jsonrpc, ...message } = body as Record<string, unknown>;
  if (type !== 'request' || jsonrpc !== undefined || typeof message.method !== 'string') return body;
  return { jsonrpc: '2.0', ...message };
}
