/**
 * A stand-in for the Kubernetes API's Secrets in one namespace, over HTTP, for the chart's secret
 * generator: GET, POST (409 when the name is taken) and merge-PATCH (409 when the patch names a
 * resourceVersion that is no longer current), each refused without the expected bearer token. It
 * records every request, so a test can say what the generator did.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredSecret {
  metadata: { name: string; namespace: string; resourceVersion: string; labels?: Record<string, string> };
  type?: string;
  data: Record<string, string>;
}

export class FakeKubernetesApi {
  readonly secrets = new Map<string, StoredSecret>();
  readonly requests: { method: string; path: string }[] = [];
  private server?: Server;
  private version = 0;

  constructor(
    readonly namespace: string,
    readonly token: string,
  ) {}

  /** The base URL (http://127.0.0.1:<port>), once listening. */
  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      void this.handle(request).then(({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>(
      (resolve, reject) => this.server?.close((error) => (error ? reject(error) : resolve())) ?? resolve(),
    );
  }

  /** A Secret's data, decoded. */
  decoded(name: string): Record<string, string> {
    const secret = this.secrets.get(name);
    if (!secret) throw new Error(`no Secret ${name}`);
    return Object.fromEntries(
      Object.entries(secret.data).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]),
    );
  }

  private async handle(request: IncomingMessage): Promise<{ status: number; body: object }> {
    const path = request.url ?? '';
    this.requests.push({ method: request.method ?? '', path });
    if (request.headers.authorization !== `Bearer ${this.token}`) return status(401, 'Unauthorized');
    const collection = `/api/v1/namespaces/${this.namespace}/secrets`;
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = text ? JSON.parse(text) : undefined;
    if (request.method === 'POST' && path === collection) {
      if (this.secrets.has(body.metadata.name)) return status(409, `secrets "${body.metadata.name}" already exists`);
      return { status: 201, body: this.store({ ...body, metadata: { ...body.metadata, namespace: this.namespace } }) };
    }
    const name = path.startsWith(`${collection}/`) ? decodeURIComponent(path.slice(collection.length + 1)) : undefined;
    const secret = name === undefined ? undefined : this.secrets.get(name);
    if (name === undefined || !['GET', 'PATCH'].includes(request.method ?? ''))
      return status(405, 'not served by the stand-in');
    if (!secret) return status(404, `secrets "${name}" not found`);
    if (request.method === 'GET') return { status: 200, body: secret };
    if (request.headers['content-type'] !== 'application/merge-patch+json') return status(415, 'merge patches only');
    const wanted = body.metadata?.resourceVersion;
    if (wanted !== undefined && wanted !== secret.metadata.resourceVersion)
      return status(409, 'the object has been modified');
    return { status: 200, body: this.store({ ...secret, data: { ...secret.data, ...body.data } }) };
  }

  private store(secret: StoredSecret): StoredSecret {
    const stored = { ...secret, metadata: { ...secret.metadata, resourceVersion: String(++this.version) } };
    this.secrets.set(stored.metadata.name, stored);
    return stored;
  }
}

function status(code: number, message: string) {
  return { status: code, body: { kind: 'Status', code, message } };
}
