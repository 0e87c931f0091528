import { localhostAllowedHostnames, localhostAllowedOrigins } from '@modelcontextprotocol/server';
import type { SwitchboardConfig } from '../../config/config.schema';

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

export interface RequestOriginPolicy {
  /** Hostnames the Host header may name. */
  hosts: string[];
  /** Hostnames a browser's Origin header may name (requests without Origin pass). */
  origins: string[];
}

/**
 * What `/mcp` accepts against DNS rebinding: loopback, the configured listen host (unless it is a
 * wildcard address), the public URL's host, and the configured extras.
 */
export function requestOriginPolicy(config: {
  server: Pick<SwitchboardConfig['server'], 'host' | 'public_url'>;
  mcp_server: Pick<SwitchboardConfig['mcp_server'], 'allowed_hosts' | 'allowed_origins'>;
}): RequestOriginPolicy {
  const own = [config.server.host, ...(config.server.public_url ? [new URL(config.server.public_url).hostname] : [])]
    .map((host) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host))
    .filter((host) => !WILDCARD_HOSTS.has(host));
  return {
    hosts: unique([...localhostAllowedHostnames(), ...own, ...config.mcp_server.allowed_hosts]),
    origins: unique([...localhostAllowedOrigins(), ...own, ...config.mcp_server.allowed_origins]),
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values.map((value) => value.toLowerCase()))];
}
