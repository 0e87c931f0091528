import { lookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { context, propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { inSpan } from '../tracing/spans';
import { OutboundUrlBlockedError, type OutboundUrlPolicy } from './outbound-url-policy';

const DEFAULT_TIMEOUT_MS = 30_000;

export interface GuardedFetchOptions {
  /** Bounds the wait for response headers (default 30 s). */
  timeoutMs?: number;
  /** A client certificate for mTLS (PEM), and a CA to trust besides the system's. */
  clientCertificate?: { cert: string; key: string; ca?: string };
}

/**
 * A fetch that only reaches what the policy allows. The URL is checked up front for a clear error,
 * and every connection (redirect hops included) is checked again against the addresses it actually
 * connects to, so DNS rebinding between the check and the connect cannot slip through.
 * `timeoutMs` bounds the wait for response headers; a streamed body may then run longer.
 */
export function createGuardedFetch(policy: OutboundUrlPolicy, options: GuardedFetchOptions = {}): typeof fetch {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const dispatcher = new Agent({ connect: guardedConnector(policy, timeoutMs, tlsOptions(options.clientCertificate)) });

  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (typeof input !== 'string' && !(input instanceof URL)) {
      throw new TypeError('the guarded fetch takes a URL or a string, not a Request');
    }
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException(`outbound request timed out after ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
    try {
      await policy.check(input);
      return await inClientSpan(input, init, (traced) => undiciFetch(input, { ...traced, signal, dispatcher }));
    } catch (error) {
      throw error instanceof TypeError && error.cause instanceof OutboundUrlBlockedError ? error.cause : error;
    } finally {
      clearTimeout(timer);
    }
  };
  return guardedFetch;
}

/**
 * An outbound request in a client span whose context it carries on (`traceparent`), so the peer's
 * spans join the trace (LLM providers, A2A agents, MCP servers, webhooks). The span ends with the
 * response's headers: a streamed body is timed by the span of whoever reads it (`chat`, an MCP
 * call). Off, `init` goes as it is.
 */
function inClientSpan(
  input: string | URL,
  init: RequestInit | undefined,
  send: (init: RequestInit | undefined) => Promise<Response>,
): Promise<Response> {
  const method = (init?.method ?? 'GET').toUpperCase();
  const attributes = () => {
    const url = new URL(input);
    return {
      'http.request.method': method,
      'url.full': `${url.origin}${url.pathname}`,
      'server.address': url.hostname,
      'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
    };
  };
  return inSpan(
    method,
    () => ({ kind: SpanKind.CLIENT, attributes: attributes() }),
    async (span) => {
      if (!span) return send(init);
      const headers = new Headers(init?.headers);
      propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
      const response = await send({ ...init, headers });
      span.setAttribute('http.response.status_code', response.status);
      if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: String(response.status) });
      return response;
    },
  );
}

function tlsOptions(certificate: GuardedFetchOptions['clientCertificate']): buildConnector.BuildOptions {
  if (!certificate) return {};
  return {
    cert: certificate.cert,
    key: certificate.key,
    ...(certificate.ca && { ca: [...rootCertificates, certificate.ca] }),
  };
}

function guardedConnector(
  policy: OutboundUrlPolicy,
  timeoutMs: number,
  tls: buildConnector.BuildOptions,
): buildConnector.connector {
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const url = `${options.protocol}//${options.host ?? options.hostname}`;
    // Node skips the lookup function for IP literals, so they are checked here.
    const reason = isIP(options.hostname) ? policy.blockedReason(options.hostname, options.hostname, port) : undefined;
    if (reason) return callback(new OutboundUrlBlockedError(url, reason), null);
    // One connector per connection, because the lookup needs the port for `host:port` allowlist entries.
    buildConnector({ ...tls, timeout: timeoutMs, lookup: guardedLookup(policy, port, url) })(options, callback);
  };
}

function guardedLookup(policy: OutboundUrlPolicy, port: number, url: string): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const reason = addresses.map(({ address }) => policy.blockedReason(address, hostname, port)).find(Boolean);
      if (reason) return callback(new OutboundUrlBlockedError(url, reason), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
