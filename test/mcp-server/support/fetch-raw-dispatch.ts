import { DispatchError, type JsonRpcResponse, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { bearer } from '../../support/test-app';
import { messageOf, modernHeaders } from './raw-mcp';

/**
 * ext-tasks' raw path for 2026-07-28 task traffic (`tools/call`, `tasks/*`), which the 2.x
 * Client's codecs reject: one POST to `/mcp` per request with the era's headers, `Mcp-Name`
 * carrying the tool name or the task id, and the request's own headers over ours (merged
 * case-insensitively: a header sent twice is refused).
 */
export function fetchRawDispatch(baseUrl: string, key?: string): RawClientDispatch {
  let nextId = 0;
  return async (request, options) => {
    const { method, params } = request as { method: string; params?: { name?: string; taskId?: string } };
    const headers: Record<string, string> = {
      ...modernHeaders(method, method === 'tools/call' ? params?.name : params?.taskId),
      ...bearer(key),
    };
    for (const [name, value] of Object.entries(options?.context?.headers ?? {})) headers[name.toLowerCase()] = value;
    const body = JSON.stringify({ jsonrpc: '2.0', id: `raw-${++nextId}`, ...(request as object) });
    const response = await fetch(new URL('/mcp', baseUrl), { method: 'POST', headers, body, signal: options?.signal });
    const message = messageOf(await response.text());
    if (message?.error) return { kind: 'error', error: message.error } as JsonRpcResponse;
    if (message && 'result' in message) return { kind: 'result', result: message.result } as JsonRpcResponse;
    throw new DispatchError(`${method}: HTTP ${response.status} without a JSON-RPC answer`, response.status >= 500);
  };
}
