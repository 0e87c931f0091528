import type { FastifyRequest } from 'fastify';

/** Where clients reach this service: `server.public_url`, else the scheme and host they used. */
export function baseUrlOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}
