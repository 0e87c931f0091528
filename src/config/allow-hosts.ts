import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** One `outbound.allow_hosts` entry, parsed: a hostname or a network, on one port or any. */
export type AllowEntry = { port?: number } & ({ hostname: string } | { network: Address; prefix: number });

/** `name`, `name:port`, an IP address (IPv6 bare or in brackets, with a port) or a CIDR; undefined for anything else. */
export function parseAllowEntry(entry: string): AllowEntry | undefined {
  if (entry.includes('/')) {
    const [address, prefix] = entry.split('/');
    if (!isIP(address) || !/^\d{1,3}$/.test(prefix)) return undefined;
    try {
      const [network, bits] = ipaddr.parseCIDR(entry);
      return { network, prefix: bits };
    } catch {
      return undefined;
    }
  }
  if (isIP(entry) === 6) return singleAddress(entry);
  const match = /^([^\s/?#@:*[\]]+|\[[^\]]+\])(?::(\d{1,5}))?$/.exec(entry);
  const hostname = match && canonicalHostname(match[1]);
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  if (!hostname || (port !== undefined && (port < 1 || port > 65535))) return undefined;
  return isIP(hostname) ? singleAddress(hostname, port) : { hostname, port };
}

/** What the loader refuses in `outbound.allow_hosts`: each entry that does not parse. */
export function allowHostProblems(allowHosts: readonly string[]): string[] {
  return allowHosts
    .filter((entry) => parseAllowEntry(entry) === undefined)
    .map((entry) => `outbound.allow_hosts: "${entry}" is not a hostname, hostname:port, IP address or CIDR`);
}

/** A hostname without IPv6 brackets and trailing dots, as URLs and entries are compared. */
export function bareHostname(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
}

function singleAddress(address: string, port?: number): AllowEntry {
  const network = ipaddr.process(address);
  return { network, prefix: network.kind() === 'ipv4' ? 32 : 128, port };
}

function canonicalHostname(host: string): string | undefined {
  try {
    return bareHostname(new URL(`http://${host}`).hostname) || undefined;
  } catch {
    return undefined;
  }
}
