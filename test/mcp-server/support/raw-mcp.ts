import { request as httpRequest } from 'node:http';
import { bearer } from '../../support/test-app';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The JSON-RPC message of the answer, from a JSON body or the last SSE `data:` line. */
  message?: { id?: unknown; result?: unknown; error?: { code: number; message: string } };
}

/** One HTTP request to `/mcp` with full control over headers (Host included), as a hostile or sloppy client sends it. */
export function rawMcp(
  baseUrl: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const url = new URL('/mcp', baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          ...bearer(),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, message: messageOf(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A 2025-era JSON-RPC request, as a client sends it without `initialize` (stateless style). */
export function rpc(method: string, params?: unknown, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
}

/** The `_meta` every 2026-07-28 request carries in place of a session. */
export function modernMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test-client', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** The HTTP headers of a 2026-07-28 request: the version, and the method (and tool) mirrored from the body. */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

/** The JSON-RPC message of an answer body: JSON, or the last SSE `data:` line. */
export function messageOf(text: string): RawResponse['message'] {
  const data =
    text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .at(-1)
      ?.slice(5) ?? text;
  try {
    return JSON.parse(data) as RawResponse['message'];
  } catch {
    return undefined;
  }
}
