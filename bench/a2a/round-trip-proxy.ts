/**
 * A TCP proxy in front of Postgres or Redis that counts round trips: each time a client starts
 * sending after the server has answered is one (a pipeline of commands written together is one
 * round trip, as it costs one). Used by the budget bench to count what a request costs per process.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface RoundTripCounts {
  roundTrips: number;
  bytesToServer: number;
  bytesToClient: number;
}

export class RoundTripProxy {
  private readonly server: Server;
  private readonly counts: RoundTripCounts = { roundTrips: 0, bytesToServer: 0, bytesToClient: 0 };
  /** Local ports of the proxy's upstream sockets: how the server (Redis MONITOR) sees this proxy's clients. */
  readonly upstreamPorts = new Set<number>();
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly name: string,
    private readonly upstreamHost: string,
    private readonly upstreamPort: number,
  ) {
    this.server = createServer((client) => this.pipe(client));
  }

  /** Listens on a free port of 127.0.0.1; `url` is the service URL the proxy stands in front of. */
  static async start(name: string, url: string): Promise<RoundTripProxy> {
    const { hostname, port } = new URL(url);
    const proxy = new RoundTripProxy(name, hostname, Number(port));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** `url` with its host and port replaced by the proxy's. */
  rewrite(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  snapshot(): RoundTripCounts {
    return { ...this.counts };
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pipe(client: Socket): void {
    const upstream = createConnection({ host: this.upstreamHost, port: this.upstreamPort });
    let serverSpokeLast = true;
    upstream.once('connect', () => this.upstreamPorts.add(upstream.localPort!));
    client.on('data', (chunk: Buffer) => {
      if (serverSpokeLast) this.counts.roundTrips++;
      serverSpokeLast = false;
      this.counts.bytesToServer += chunk.length;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      serverSpokeLast = true;
      this.counts.bytesToClient += chunk.length;
      client.write(chunk);
    });
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        other.destroy();
      });
      socket.on('error', () => other.destroy());
    }
  }
}

export function difference(after: RoundTripCounts, before: RoundTripCounts): RoundTripCounts {
  return {
    roundTrips: after.roundTrips - before.roundTrips,
    bytesToServer: after.bytesToServer - before.bytesToServer,
    bytesToClient: after.bytesToClient - before.bytesToClient,
  };
}
