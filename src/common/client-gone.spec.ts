import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { once } from 'node:events';
import { whenClientLeaves } from './client-gone';

/** A server that hands each request to the test, and a raw client that can leave whenever the test says. */
async function exchange(): Promise<{
  server: Server;
  request: Promise<[IncomingMessage, ServerResponse]>;
  leave: () => void;
}> {
  const server = createServer();
  const request = once(server, 'request') as Promise<[IncomingMessage, ServerResponse]>;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write('POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 0\r\n\r\n');
  return { server, request, leave: () => socket.destroy() };
}

describe('whenClientLeaves', () => {
  let call: Awaited<ReturnType<typeof exchange>>;
  let request: IncomingMessage;
  let response: ServerResponse;
  const gone = jest.fn();
  beforeEach(async () => {
    gone.mockClear();
    call = await exchange();
    [request, response] = await call.request;
  });
  afterEach(() => call.server.close());

  it('tells of a client that leaves before its answer is complete', async () => {
    whenClientLeaves(response, gone);
    call.leave();
    await once(response, 'close');
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('tells at once of a client that left while its request was on its way', async () => {
    call.leave();
    await once(request.socket, 'close');
    whenClientLeaves(response, gone);
    expect(gone).toHaveBeenCalledTimes(1);
  });

  it('tells nothing of a client that got its whole answer', async () => {
    whenClientLeaves(response, gone);
    const closed = once(response, 'close');
    response.end('done');
    await closed;
    expect(gone).not.toHaveBeenCalled();
  });
});
