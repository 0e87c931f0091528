import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { type Address, type AllowEntry, bareHostname, parseAllowEntry } from '../config/allow-hosts';

const SCHEMES = new Set(['http:', 'https:']);
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** Endpoints that hand out instance credentials: never reachable, whatever the allowlist says. */
const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata.goog']);
const METADATA_ADDRESSES = new Set(
  [
    '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
    '169.254.170.2', // AWS ECS task credentials
    '169.254.170.23', // AWS EKS Pod Identity
    'fd00:ec2::254', // AWS IMDS over IPv6
    'fd00:ec2::23', // AWS EKS Pod Identity over IPv6
    '100.100.100.200', // Alibaba Cloud
    '192.0.0.192', // Oracle Cloud (legacy)
    '168.63.129.16', // Azure WireServer: a public address, so no range rule catches it
  ].map((address) => ipaddr.parse(address).toString()),
);

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT (CGNAT)',
  private: 'a private',
  uniqueLocal: 'a unique-local',
  reserved: 'a reserved',
};

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** Thrown when an outbound URL, or an address it resolves to, is outside the SSRF policy. */
export class OutboundUrlBlockedError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`outbound URL ${url} blocked: ${reason}`);
    this.name = 'OutboundUrlBlockedError';
  }
}

/** Decides which URLs and resolved addresses outbound requests (webhooks, A2A, MCP) may reach. */
export class OutboundUrlPolicy {
  private readonly allowed: AllowEntry[];

  /** `allowHosts` as loaded: the loader refuses an entry that does not parse (config/allow-hosts.ts). */
  constructor({ allowHosts }: { allowHosts: string[] }) {
    this.allowed = allowHosts.flatMap((entry) => parseAllowEntry(entry) ?? []);
  }

  /** Resolves the URL's host and throws OutboundUrlBlockedError unless every address it resolves to may be reached. */
  async check(input: string | URL): Promise<URL> {
    return (await this.resolve(input)).url;
  }

  /** `check`, also returning the addresses checked: a client that dials one of them reaches what was checked, whatever DNS says later. */
  async resolve(input: string | URL): Promise<{ url: URL; addresses: string[] }> {
    const url = new URL(input);
    const blocked = (reason: string) => new OutboundUrlBlockedError(redact(url), reason);
    const reason = this.blockedReasonOfUrl(url);
    if (reason) throw blocked(reason);
    const hostname = bareHostname(url.hostname);
    if (isIP(hostname)) return { url, addresses: [hostname] };
    const port = portOf(url);
    const addresses = (await lookup(hostname, { all: true })).map(({ address }) => address);
    for (const address of addresses) {
      const reason = this.blockedReason(address, hostname, port);
      if (reason) throw blocked(reason);
    }
    return { url, addresses };
  }

  /**
   * Why `url` is blocked by what it says itself, without a DNS lookup (for a URL given now and
   * fetched later, whose names are resolved then); undefined when only its addresses can tell.
   * `localhost` names are the loopback interface (RFC 6761).
   */
  blockedReasonBeforeLookup(url: URL): string | undefined {
    const reason = this.blockedReasonOfUrl(url);
    const hostname = bareHostname(url.hostname);
    if (reason || !/(^|\.)localhost$/i.test(hostname)) return reason;
    return this.blockedReason('127.0.0.1', hostname, portOf(url));
  }

  /** The scheme, credentials, metadata hostname or IP address that blocks `url` by itself. */
  private blockedReasonOfUrl(url: URL): string | undefined {
    if (!SCHEMES.has(url.protocol)) return `scheme ${url.protocol} is not allowed (only http: and https:)`;
    if (url.username || url.password) return 'URLs with credentials are not allowed';
    const hostname = bareHostname(url.hostname);
    if (METADATA_HOSTNAMES.has(hostname))
      return `${hostname} is a cloud metadata endpoint (blocked even when allowlisted)`;
    return isIP(hostname) ? this.blockedReason(hostname, hostname, portOf(url)) : undefined;
  }

  /** Why `address`, resolved from `hostname`, must not be connected to on `port`; undefined when it may. */
  blockedReason(address: string, hostname: string, port: number): string | undefined {
    const ip = ipaddr.process(address);
    const shown = isIP(address) === 6 && ip.kind() === 'ipv4' ? `${address} (${ip})` : address;
    if (METADATA_ADDRESSES.has(ip.toString()))
      return `${shown} is a cloud metadata endpoint (blocked even when allowlisted)`;
    const host = bareHostname(hostname).toLowerCase();
    if (this.allowed.some((entry) => allows(entry, host, ip, port))) return undefined;
    const range = rangeOf(ip);
    if (range === 'unicast') return undefined;
    return `${shown} is ${RANGE_NAMES[range] ?? `a special-purpose (${range})`} address (allow it with outbound.allow_hosts)`;
  }
}

function portOf(url: URL): number {
  return Number(url.port) || DEFAULT_PORTS[url.protocol];
}

function allows(entry: AllowEntry, hostname: string, ip: Address, port: number): boolean {
  if (entry.port !== undefined && entry.port !== port) return false;
  if ('hostname' in entry) return entry.hostname === hostname;
  return ip.kind() === entry.network.kind() && ip.match(entry.network, entry.prefix);
}

/** ipaddr's range name; IPv6 outside 2000::/3 (global unicast) counts as reserved. */
function rangeOf(ip: Address): string {
  const range = ip.range();
  if (range === 'unicast' && ip.kind() === 'ipv6' && !ip.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return range;
}

/** The URL as shown in errors and logs: credentials, query and fragment may carry secrets. */
function redact(url: URL): string {
  const shown = new URL(url);
  shown.username = '';
  shown.password = '';
  shown.search = '';
  shown.hash = '';
  return shown.href;
}
