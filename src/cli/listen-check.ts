import { createServer } from 'node:net';
import { StartupError } from './startup-error';

/** The config key and environment variable an operator changes to move a listener elsewhere. */
export interface ListenSetting {
  key: string;
  env: string;
}

export const API_PORT: ListenSetting = { key: 'server.port', env: 'PORT' };
export const WORKER_HEALTH_PORT: ListenSetting = { key: 'queue.health_port', env: 'SWITCHBOARD_WORKER_HEALTH_PORT' };

/**
 * Binds `host:port` for a moment and lets go, so that a taken port stops the boot before anything
 * else starts (and logs). The real listen can still lose a race for the port; describeListenError
 * words that failure the same way.
 */
export async function assertCanListen(host: string, port: number, setting: ListenSetting): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((listening, failed) => {
      probe.once('error', failed);
      probe.listen({ host, port, exclusive: true }, listening);
    });
  } catch (error) {
    throw describeListenError(error, host, port, setting);
  }
  await new Promise((closed) => probe.close(closed));
}

/** One line saying why `host:port` cannot be listened on and what to set instead; other errors are returned as they are. */
export function describeListenError(error: unknown, host: string, port: number, setting: ListenSetting): unknown {
  const change = `choose another with ${setting.env}=<port> (${setting.key} in the config file)`;
  switch ((error as NodeJS.ErrnoException)?.code) {
    case 'EADDRINUSE':
      return new StartupError(
        `Port ${port} on ${host} is already in use: stop what is listening there, or ${change}.`,
        1,
      );
    case 'EACCES':
      return new StartupError(
        `Not allowed to listen on port ${port} (ports below 1024 need privileges): ${change}.`,
        1,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(
        `Cannot listen on ${host}: no such address on this machine. Set HOST=<address> (server.host), e.g. 127.0.0.1 or 0.0.0.0.`,
        1,
      );
    default:
      return error;
  }
}
