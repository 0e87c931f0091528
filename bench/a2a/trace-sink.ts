import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Where `--tracing` sends Switchboard's spans: an OTLP/HTTP endpoint that takes every export and
 * keeps only how many it got and how many bytes, so that the bench measures the cost of making and
 * sending spans, not of a collector.
 */
export class TraceSink {
  exports = 0;
  bytes = 0;
  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
  ) {}

  static async start(): Promise<TraceSink> {
    const server = createServer((request, response) => {
      request.on('data', (chunk: Buffer) => (sink.bytes += chunk.length));
      request.on('end', () => {
        sink.exports += 1;
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const sink = new TraceSink(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return sink;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
