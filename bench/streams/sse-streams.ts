/**
 * Thousands of SSE streams on raw HTTP/1.1 keep-alive connections (node:http): the official A2A
 * client (fetch, an async generator and an SDK event per stream) would cost the bench more memory
 * and CPU at 10,000 streams than the server it measures. Each stream only counts the events it
 * gets; a stream that ends or fails before it is closed is an error.
 */
import { Agent, request } from 'node:http';

export interface OpenStream {
  /** How many SSE events it has received. */
  events: number;
  /** Resolves when it has received `count` events in all. */
  until(count: number): Promise<number>;
  close(): void;
}

export class SseStreams {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: Infinity });

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly onFailure: (error: Error) => void,
  ) {}

  /** POSTs `body` asking for SSE; resolves once the first event has arrived. */
  open(body: unknown): Promise<OpenStream> {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const waiters: { count: number; resolve: (at: number) => void }[] = [];
      let closed = false;
      const req = request(this.url, {
        method: 'POST',
        agent: this.agent,
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'content-length': Buffer.byteLength(payload),
          ...this.headers,
        },
      });
      const stream: OpenStream = {
        events: 0,
        until: (count) =>
          stream.events >= count
            ? Promise.resolve(Date.now())
            : new Promise((done) => waiters.push({ count, resolve: done })),
        close: () => {
          closed = true;
          req.destroy();
        },
      };
      req.on('response', (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`HTTP ${response.statusCode}`));
          response.resume();
          return;
        }
        let tail = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const text = tail + chunk;
          const blocks = text.split('\n\n');
          tail = blocks.pop()!;
          for (const block of blocks) {
            if (block.includes('"error"')) this.onFailure(new Error(`stream error: ${block.slice(0, 300)}`));
            stream.events++;
            if (stream.events === 1) resolve(stream);
          }
          const now = Date.now();
          for (let i = waiters.length - 1; i >= 0; i--)
            if (stream.events >= waiters[i].count) waiters.splice(i, 1)[0].resolve(now);
        });
        response.on('end', () => !closed && this.onFailure(new Error('a stream ended before it was closed')));
      });
      req.on('error', (error) => (stream.events === 0 ? reject(error) : !closed && this.onFailure(error)));
      req.end(payload);
    });
  }
}
