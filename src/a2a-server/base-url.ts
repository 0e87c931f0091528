import type { FastifyRequest } from 'fastify';
import type { SwitchboardConfig } from '../config/config.schema';

/** Where clients reach this service: `server.public_url`, else the scheme and host they used. */
export function baseUrlOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/** Where clients reach this service when no request says: `server.public_url`, else the address it listens on. */
export function configuredBaseUrl(server: Pick<SwitchboardConfig['server'], 'public_url' | 'host' | 'port'>): string {
  return server.public_url ?? `http://${server.host}:${server.port}`;
}
