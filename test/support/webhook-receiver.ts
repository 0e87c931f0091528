import { createServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface ReceivedNotification<Body> {
  headers: IncomingHttpHeaders;
  body: Body;
}

/**
 * A webhook on loopback that records every JSON notification POSTed to it, in the order they
 * arrive, and answers 204; with `refuseFirst`, it answers that many first requests 503 instead,
 * unrecorded, as a receiver that was briefly down.
 */
export class WebhookReceiver<Body = unknown> {
  readonly received: ReceivedNotification<Body>[] = [];
  private refusing: number;
  private readonly server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (this.refusing > 0) {
        this.refusing--;
        return void response.writeHead(503).end();
      }
      this.received.push({ headers: request.headers, body: JSON.parse(body) as Body });
      response.writeHead(204).end();
    });
  });

  private constructor(refuseFirst: number) {
    this.refusing = refuseFirst;
  }

  static async start<Body = unknown>({ refuseFirst = 0 }: { refuseFirst?: number } = {}): Promise<
    WebhookReceiver<Body>
  > {
    const receiver = new WebhookReceiver<Body>(refuseFirst);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  close(): void {
    this.server.close();
  }
}
