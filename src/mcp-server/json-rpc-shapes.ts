import type { JSONRPCNotification, JSONRPCRequest } from '@modelcontextprotocol/server';

/**
 * What `/mcp` routes on, read from a message's shape alone: the SDK's guards of the same names run
 * a full schema validation, several times a request when used for routing, and the SDK validates
 * every message it serves anyway.
 */
export function isRequestMessage(message: unknown): message is JSONRPCRequest {
  return isJsonRpc(message) && typeof message.method === 'string' && isRequestId(message.id);
}

export function isNotificationMessage(message: unknown): message is JSONRPCNotification {
  return isJsonRpc(message) && typeof message.method === 'string' && !('id' in message);
}

/** A result or an error answering a request. */
export function isAnswerMessage(message: unknown): message is { jsonrpc: '2.0'; id: string | number } {
  return isJsonRpc(message) && isRequestId(message.id) && ('result' in message || 'error' in message);
}

function isJsonRpc(message: unknown): message is Record<string, unknown> {
  return typeof message === 'object' && message !== null && (message as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

function isRequestId(id: unknown): id is string | number {
  return typeof id === 'string' || typeof id === 'number';
}
