import { type ChannelCredentials, credentials } from '@grpc/grpc-js';
import { isIP } from 'node:net';
import type { OutboundUrlPolicy } from '../security/outbound-url-policy';

/** Where a gRPC client dials, and how. */
export interface DialableGrpcTarget {
  /** grpc-js's target: `address:port` for a plaintext agent, pinned to the address the SSRF rules checked; `host:port` for TLS. */
  endpoint: string;
  channel: ChannelCredentials;
}

/**
 * A gRPC interface's URL as cards write it: `host:port`, or with a scheme (`grpc://` and `http://`
 * plaintext, `grpcs://` and `https://` TLS). A bare `host:443` is TLS, any other bare port plaintext.
 * The SSRF rules are checked as for an HTTP URL of the same host, port and security. A plaintext
 * target is dialled at the address checked; a TLS one by its name, which its certificate must match
 * (grpc-js resolves it again: a name that resolves elsewhere between the check and the dial gets
 * through, a window the HTTP bindings' connect-time check closes).
 */
export async function dialableGrpcTarget(policy: OutboundUrlPolicy, interfaceUrl: string): Promise<DialableGrpcTarget> {
  const { host, tls } = parse(interfaceUrl);
  const { url, addresses } = await policy.resolve(`${tls ? 'https' : 'http'}://${host}`);
  const port = url.port || (tls ? '443' : '80');
  if (tls) return { endpoint: `${url.hostname}:${port}`, channel: credentials.createSsl() };
  const [address] = addresses;
  return {
    endpoint: `${isIP(address) === 6 ? `[${address}]` : address}:${port}`,
    channel: credentials.createInsecure(),
  };
}

function parse(interfaceUrl: string): { host: string; tls: boolean } {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(interfaceUrl);
  if (!scheme) return { host: interfaceUrl, tls: /:443$/.test(interfaceUrl) };
  const host = new URL(interfaceUrl.replace(/^[^:]+:/, 'http:')).host;
  return { host, tls: ['grpcs', 'https'].includes(scheme[1].toLowerCase()) };
}
