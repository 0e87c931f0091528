import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';

/**
 * At shutdown, closes the connections that never carried a request. Node's `server.close()` closes
 * idle keep-alive connections but waits for these until their headers timeout (a minute or more),
 * and clients and load balancers open them ahead of use. Connections with a request in flight are
 * left to finish.
 */
export function closeUnusedConnectionsAtShutdown(fastify: FastifyInstance): void {
  const unused = new Set<Socket>();
  fastify.server.on('connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  fastify.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  fastify.addHook('preClose', (done) => {
    for (const socket of unused) socket.destroy();
    done();
  });
}
