import type { FastifyReply } from 'fastify';
import { getEventListeners, once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { clientGoneSignal } from './fetch-exchange';

/** A server that hands its one request's response to the test, and a raw client that can leave whenever the test says. */
async function exchange(): Promise<{
  server: Server;
  reply: FastifyReply;
  response: ServerResponse;
  leave: () => void;
}> {
  const server = createServer();
  const request = once(server, 'request');
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write('GET / HTTP/1.1\r\nHost: test\r\n\r\n');
  const [, response] = (await request) as [unknown, ServerResponse];
  return { server, reply: { raw: response } as FastifyReply, response, leave: () => socket.destroy() };
}

describe('clientGoneSignal with the server\u2019s stop signal (a stream)', () => {
  let call: Awaited<ReturnType<typeof exchange>>;
  let stopping: AbortController;
  beforeEach(async () => {
    call = await exchange();
    stopping = new AbortController();
  });
  afterEach(async () => {
    call.leave();
    await new Promise((closed) => call.server.close(closed));
  });

  it('fires when the server stops while the answer is open', () => {
    const signal = clientGoneSignal(call.reply, stopping.signal);
    expect(signal.aborted).toBe(false);
    stopping.abort();
    expect(signal.aborted).toBe(true);
  });

  it('fires when the client leaves, and the stop signal then holds nothing of the answer', async () => {
    const signal = clientGoneSignal(call.reply, stopping.signal);
    call.leave();
    await once(call.response, 'close');
    expect(signal.aborted).toBe(true);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });

  it('lets go of the stop signal once the server has ended the answer, without firing', async () => {
    const signal = clientGoneSignal(call.reply, stopping.signal);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(1);
    const closed = once(call.response, 'close');
    call.response.end();
    await closed;
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
    stopping.abort();
    expect(signal.aborted).toBe(false);
  });

  it('fires at once, holding nothing, when the server is stopping already', () => {
    stopping.abort();
    expect(clientGoneSignal(call.reply, stopping.signal).aborted).toBe(true);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });
});
