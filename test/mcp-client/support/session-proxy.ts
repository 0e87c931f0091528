import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';

/**
 * An HTTP proxy in front of an MCP server that records the headers it forwards and can forget the
 * server's sessions, answering 404 for them as the spec says a server does for a session it no
 * longer knows (expired, or lost in a restart) while the upstream server keeps running.
 */
export class SessionProxy {
  readonly requests: { method: string; headers: IncomingHttpHeaders }[] = [];
  /** How many requests were answered 404 for a forgotten session. */
  notFound = 0;
  /** The request bodies forwarded so far. */
  readonly bodies: string[] = [];
  private readonly bodyListeners = new Set<(body: string) => void>();
  private readonly sessions = new Set<string>();
  private readonly forgotten = new Set<string>();
  private readonly server: Server;

  constructor(private readonly upstreamPort: number) {
    this.server = createServer((incoming, outgoing) => {
      this.requests.push({ method: incoming.method ?? '', headers: incoming.headers });
      const session = incoming.headers['mcp-session-id'];
      if (typeof session === 'string' && this.forgotten.has(session)) {
        this.notFound++;
        outgoing.writeHead(404, { 'content-type': 'application/json' });
        outgoing.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
        );
        return;
      }
      const upstream = request(
        {
          port: this.upstreamPort,
          host: '127.0.0.1',
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          const issued = answer.headers['mcp-session-id'];
          if (typeof issued === 'string') this.sessions.add(issued);
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on('error', () => outgoing.destroy());
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.bodies.push(body);
        for (const listener of this.bodyListeners) listener(body);
      });
      incoming.pipe(upstream);
    });
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
  }

  /** The first request body, the `from`th forwarded or a later one, that contains `text`. */
  bodyContaining(text: string, from = 0): Promise<string> {
    const seen = this.bodies.slice(from).find((body) => body.includes(text));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const listener = (body: string) => {
        if (!body.includes(text)) return;
        this.bodyListeners.delete(listener);
        resolve(body);
      };
      this.bodyListeners.add(listener);
    });
  }

  /** Every session issued so far is unknown from now on. */
  forgetSessions(): void {
    for (const session of this.sessions) this.forgotten.add(session);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
