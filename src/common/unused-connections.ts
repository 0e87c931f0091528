import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';

/**
 * Closes connections that never carried a request: `idleMs` after they opened, and at shutdown.
 * Node times a request only from its first byte, so a client that connects and sends nothing would
 * hold its connection (and a place under `maxConnections`) forever; and `server.close()` waits for
 * such connections, which clients and load balancers open ahead of use. One that has sent part of a
 * request gets as long again, for Node's headers timeout to answer it 408 first. Connections with a
 * request in flight are left to finish.
 */
export function closeUnusedConnections(fastify: FastifyInstance, idleMs: number): void {
  const unused = new Map<Socket, NodeJS.Timeout>();
  const used = (socket: Socket) => {
    clearTimeout(unused.get(socket));
    unused.delete(socket);
  };
  const closeLater = (socket: Socket, grace: boolean) => {
    const close = () => (grace && socket.bytesRead > 0 ? closeLater(socket, false) : socket.destroy());
    unused.set(socket, setTimeout(close, idleMs));
  };
  fastify.server.on('connection', (socket: Socket) => {
    closeLater(socket, true);
    socket.once('close', () => used(socket));
  });
  fastify.server.on('request', (request: { socket: Socket }) => used(request.socket));
  fastify.addHook('preClose', (done) => {
    for (const socket of unused.keys()) socket.destroy();
    done();
  });
}
