import type { FastifyRequest } from 'fastify';

/**
 * A Fastify request as the fetch `Request` the MCP SDK's handlers take, without building one:
 * undici's `Request` and `Headers` copy and check every header (tens of microseconds a request,
 * more than all of Switchboard's own routing). The SDK reads a request's method, URL, headers and
 * signal, and its body only when it is given no parsed body, which `/mcp` always gives it.
 */
export function forwardedRequest(request: FastifyRequest, signal: AbortSignal): Request {
  const headers = new IncomingHeaders(request.headers);
  const forwarded = { method: request.method, headers, signal, body: null, bodyUsed: false };
  let url: string | undefined;
  Object.defineProperty(forwarded, 'url', {
    get: () => (url ??= `${request.protocol}://${request.host}${request.url}`),
    enumerable: true,
  });
  return forwarded as unknown as Request;
}

/** Node's parsed headers (lower-case names, repeated ones joined) read through the fetch `Headers` interface. */
class IncomingHeaders implements Iterable<[string, string]> {
  constructor(private readonly headers: FastifyRequest['headers']) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    if (value === undefined || name.startsWith(':')) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  forEach(callback: (value: string, name: string, headers: IncomingHeaders) => void): void {
    for (const [name, value] of this) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.headers).sort()) {
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
