import { connect, type Socket } from 'node:net';
import { eventually } from '../support/eventually';
import { bearer, startTestApp, testConfig } from '../support/test-app';

describe('shutdown', () => {
  it('closes at once although a client holds a connection it never sent a request on', async () => {
    const { app, url } = await startTestApp(testConfig());
    const { port } = new URL(url);
    const unused = await new Promise<Socket>((opened) => {
      const socket = connect(Number(port), '127.0.0.1', () => opened(socket));
    });
    const closedByServer = new Promise((ended) => unused.once('close', ended));
    const started = Date.now();
    await app.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    await closedByServer;
  });

  it('lets a request in flight finish: one whose body is still arriving gets its answer', async () => {
    const { app, url } = await startTestApp(testConfig());
    const { port } = new URL(url);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } });
    const socket = await new Promise<Socket>((opened) => {
      const s = connect(Number(port), '127.0.0.1', () => opened(s));
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const ended = new Promise((done) => socket.once('close', done));
    const server = app.getHttpServer();
    const received = new Promise((done) => server.once('request', done));
    socket.write(
      `POST /a2a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n` +
        `Authorization: ${bearer().authorization}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await received;
    const closing = app.close();
    await eventually(
      async () => server.listening,
      (listening) => !listening,
    );
    socket.end(body.slice(10));
    await closing;
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"id":1');
  });
});
