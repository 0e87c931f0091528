import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { bearer, testConfig } from '../support/test-app';
import { startAppWithTestRoutes } from './test-routes';

const LIMIT_BYTES = 1024;

describe('request body limit', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startAppWithTestRoutes(testConfig({ SWITCHBOARD_BODY_LIMIT_BYTES: String(LIMIT_BYTES) })));
  });

  afterAll(async () => {
    await app?.close();
  });

  const json = (bytes: number) => JSON.stringify({ text: 'x'.repeat(bytes - '{"text":""}'.length) });
  const post = (body: RequestInit['body'], headers: Record<string, string> = {}) =>
    fetch(`${url}/__test/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(), ...headers },
      body,
      duplex: 'half',
    } as RequestInit);

  it('accepts a body at the limit', async () => {
    const body = json(LIMIT_BYTES);
    expect(Buffer.byteLength(body)).toBe(LIMIT_BYTES);
    const response = await post(body);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual(JSON.parse(body));
  });

  it('answers 413 with a JSON error to a body over the limit', async () => {
    const response = await post(json(LIMIT_BYTES + 1));
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body is too large',
    });
  });

  it('answers 413 to a chunked body that grows over the limit', async () => {
    const chunks = [json(LIMIT_BYTES * 2)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk) controller.enqueue(new TextEncoder().encode(chunk));
        else controller.close();
      },
    });
    const response = await post(stream as unknown as RequestInit['body']);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { statusCode: number }).statusCode).toBe(413);
  });
});
