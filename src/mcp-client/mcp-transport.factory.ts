import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { McpServerConfig } from '../config/config.schema';
import { stdioLaunch } from './stdio-launch';

/**
 * A fresh transport for one connection attempt (the SDK's transports are single-use). HTTP and SSE
 * go through `fetch`, the SSRF-guarded one; a stdio server's stderr lines go to `onStderr`.
 */
export function createMcpTransport(
  server: McpServerConfig,
  fetch: typeof globalThis.fetch,
  onStderr: (line: string) => void,
): Transport {
  const { transport } = server;
  switch (transport.type) {
    case 'stdio': {
      const stdio = new StdioClientTransport(stdioLaunch(transport, server.env_values ?? {}));
      // Read it always: an unread pipe would fill up and block the server's writes.
      createInterface({ input: stdio.stderr as Readable }).on('line', onStderr);
      return stdio;
    }
    case 'sse':
      return new SSEClientTransport(new URL(transport.url), { fetch });
    case 'http':
      return new StreamableHTTPClientTransport(new URL(transport.url), {
        fetch,
        requestInit: { headers: transport.headers },
      });
  }
}
