import { Logger } from '@nestjs/common';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  INTERNAL_ERROR,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { callContextFor } from '../../a2a-server/call-context';
import { AccessScope } from '../../security/access-scope';
import type { McpCaller } from '../mcp-caller';
import { FramedStdioTransport } from './framed-stdio-transport';
import { isListen } from '../bridge/listened-tasks';
import type { LiveMcpServer, SwitchboardMcpServerFactory } from '../server/switchboard-mcp-server.factory';

const logger = new Logger('McpStdio');

/**
 * The local user at the other end of the pipe: no key, like a service that runs without keys. Each
 * use of its context is a request of its own, as over HTTP: the A2A handler keeps what a request
 * wrote, and follows its task, by context.
 */
function stdioCaller(taskParamOf: (requestId: RequestId) => unknown): McpCaller {
  return {
    owner: '',
    scope: AccessScope.unrestricted,
    get context() {
      return callContextFor({}, {}, false);
    },
    taskParamOf,
  };
}

/**
 * Serves the in-process tools over stdio, both protocol eras (the SDK's `serveStdio` pins one
 * server per connection, which follows the tool list). Resolves when the client closes the pipe.
 */
export function serveEmbeddedStdio(
  factory: SwitchboardMcpServerFactory,
  wire = new FramedStdioTransport(),
): Promise<void> {
  const live: LiveMcpServer[] = [];
  const connection = new AbortController();
  /** The `task` of 2025-era `tools/call` requests not yet handed to their tool, by request id. */
  const taskParams = new Map<RequestId, unknown>();
  const caller = stdioCaller((id) => {
    const task = taskParams.get(id);
    taskParams.delete(id);
    return task;
  });
  wire.observe = (message) => {
    // A 2026-07-28 client names the tasks it wants to hear of in `subscriptions/listen`, which the SDK answers alone.
    if (isListen(message))
      void factory.followListened(message, caller, (uri) => live.at(-1)?.notifyResourceUpdated(uri), connection.signal);
    if (isJSONRPCRequest(message) && message.method === 'tools/call') {
      const task = (message.params as { task?: unknown } | undefined)?.task;
      if (task !== undefined) taskParams.set(message.id, task);
    }
  };
  return new Promise((done) => {
    // Called again if a `server/discover` probe is followed by `initialize`; the probe's instance is discarded.
    const create = () => {
      const instance = factory.createLive(caller);
      live.push(instance);
      return instance.server;
    };
    serveStdio(create, { transport: wire, onerror: (error) => logger.warn({ err: error.message }, 'MCP stdio error') });
    const onclose = wire.onclose;
    wire.onclose = () => {
      onclose?.();
      connection.abort();
      for (const instance of live) instance.stop();
      done();
    };
  });
}

/**
 * Relays every message between stdio and a running Switchboard's `/mcp` (the official client
 * transport keeps the session id and protocol headers). A request the service cannot take is
 * answered here with an error naming it, so the client is never left waiting. A stdio client
 * cancels with `notifications/cancelled` in both eras, but over HTTP only a 2025-era session
 * reads that notification: a 2026-07-28 server takes the end of the request's own stream as
 * the cancellation, so the relay does both. Resolves when the client closes the pipe.
 */
export async function proxyStdio(
  mcpUrl: URL,
  apiKey: string | undefined,
  wire = new FramedStdioTransport(),
): Promise<void> {
  const upstream = new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: apiKey ? { headers: { authorization: `Bearer ${apiKey}` } } : undefined,
  });
  // A write fails once the client has hung up (EPIPE): reported, never an unhandled rejection.
  const toClient = (message: JSONRPCMessage) => void wire.send(message).catch((error: Error) => wire.onerror?.(error));
  const initializing = new Set<RequestId>();
  /** Each request's own upstream stream, until its response comes back. */
  const inFlight = new Map<RequestId, AbortController>();
  const failed = (message: JSONRPCMessage) => (error: Error) => {
    logger.warn({ url: mcpUrl.href, err: error.message }, 'MCP request to Switchboard failed');
    if (isJSONRPCRequest(message)) {
      toClient({
        jsonrpc: '2.0',
        id: message.id,
        error: { code: INTERNAL_ERROR, message: `Switchboard at ${mcpUrl.origin}: ${error.message}` },
      });
    }
  };
  wire.onmessage = (message) => {
    if (!isJSONRPCRequest(message)) {
      const canceled = cancelledRequestId(message);
      if (canceled !== undefined) {
        inFlight.get(canceled)?.abort();
        inFlight.delete(canceled);
      }
      upstream.send(message).catch(failed(message));
      return;
    }
    if (message.method === 'initialize') initializing.add(message.id);
    const stream = new AbortController();
    inFlight.set(message.id, stream);
    upstream.send(message, { requestSignal: stream.signal }).catch((error: Error) => {
      if (stream.signal.aborted) return; // canceled: the client expects no answer
      inFlight.delete(message.id);
      failed(message)(error);
    });
  };
  upstream.onmessage = (message) => {
    if (isJSONRPCResponse(message) && message.id !== undefined) inFlight.delete(message.id);
    // A 2025-era session sends its negotiated version on every later request.
    if (isJSONRPCResultResponse(message) && initializing.delete(message.id)) {
      upstream.setProtocolVersion(String((message.result as { protocolVersion?: unknown }).protocolVersion));
    }
    toClient(message);
  };
  upstream.onerror = (error) =>
    logger.warn({ url: mcpUrl.href, err: error.message }, 'MCP connection to Switchboard reported an error');
  wire.onerror = (error) => logger.warn({ err: error.message }, 'MCP stdio error');
  const closed = new Promise<void>((done) => (wire.onclose = done));
  await upstream.start();
  await wire.start();
  await closed;
  if (upstream.sessionId) await upstream.terminateSession().catch(() => undefined);
  await upstream.close();
}

/** The request a `notifications/cancelled` names, if `message` is one. */
function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
  if (!isJSONRPCNotification(message) || message.method !== 'notifications/cancelled') return undefined;
  return (message.params as { requestId?: RequestId } | undefined)?.requestId;
}
