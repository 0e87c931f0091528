import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { bearer, startTestApp, testConfig } from '../support/test-app';

describe('security headers', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig()));
  });

  afterAll(async () => {
    await app?.close();
  });

  function expectSecurityHeaders(response: Response): void {
    const headers = Object.fromEntries(response.headers);
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': expect.stringMatching(/^max-age=\d+/),
      'cross-origin-opener-policy': 'same-origin',
      'content-security-policy': expect.stringContaining("default-src 'none'"),
    });
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-powered-by']).toBeUndefined();
  }

  it.each([
    ['a public route', '/healthz', 200],
    ['a refused request', '/metrics', 401],
    ['an unknown route', '/no-such-route', 404],
  ])('are sent on %s', async (_case, path, status) => {
    const response = await fetch(url + path);
    expect(response.status).toBe(status);
    expectSecurityHeaders(response);
  });

  it('are sent on an SSE stream, whose reply is hijacked and written raw', async () => {
    const response = await fetch(`${url}/a2a`, {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json', accept: 'text/event-stream', 'A2A-Version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'hi' }] } },
      }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expectSecurityHeaders(response);
    await response.body?.cancel();
  });
});
