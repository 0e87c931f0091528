import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';

/** A request that passed, with the token it carried and what the token says. */
export interface CheckedRequest {
  token: string;
  claims: JWTPayload;
}

/**
 * An upstream that requires OAuth: a resource server in front of a real server (server-everything,
 * a Switchboard), which lets through only requests bearing a JWT of `issuer` for its own URL as the
 * audience, and records each. Everything else is answered 401 with a `WWW-Authenticate` challenge,
 * as an MCP server's resource server does. `revoke` makes it refuse a token it accepted before.
 */
export class TokenCheckingProxy {
  readonly accepted: CheckedRequest[] = [];
  /** The bearer values it refused, for checking that a caller's own token never reaches it. */
  readonly refused: string[] = [];
  private readonly revoked = new Set<string>();
  private readonly server: Server;
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  private constructor(
    private readonly target: { port: number },
    private readonly issuer: string,
    jwksUri: string,
  ) {
    this.keys = createRemoteJWKSet(new URL(jwksUri));
    this.server = createServer((incoming, outgoing) => {
      const token = /^Bearer (.+)$/i.exec(incoming.headers.authorization ?? '')?.[1];
      void this.check(token).then((claims) => {
        if (!claims) {
          if (token) this.refused.push(token);
          outgoing.writeHead(401, {
            'www-authenticate': `Bearer resource_metadata="${this.url}/.well-known/oauth-protected-resource", error="invalid_token"`,
            'content-type': 'application/json',
          });
          outgoing.end('{"error":"invalid_token"}');
          return;
        }
        this.accepted.push({ token: token!, claims });
        const headers = { ...incoming.headers };
        delete headers.authorization;
        const upstream = request(
          { port: this.target.port, host: '127.0.0.1', path: incoming.url, method: incoming.method, headers },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        upstream.on('error', () => outgoing.destroy());
        incoming.pipe(upstream);
      });
    });
  }

  /** Listens on a free loopback port, in front of the server on `target.port`. */
  static async start(
    target: { port: number },
    issuer: { issuer: string; jwksUri: string },
  ): Promise<TokenCheckingProxy> {
    const proxy = new TokenCheckingProxy(target, issuer.issuer, issuer.jwksUri);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** Its origin: the audience its tokens must name. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  revoke(token: string): void {
    this.revoked.add(token);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async check(token: string | undefined): Promise<JWTPayload | undefined> {
    if (!token || this.revoked.has(token)) return undefined;
    try {
      return (await jwtVerify(token, this.keys, { issuer: this.issuer, audience: this.url })).payload;
    } catch {
      return undefined;
    }
  }
}
