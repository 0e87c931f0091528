import { applyDecorators, Header } from '@nestjs/common';

/**
 * The console's own policy, replacing the API's `default-src 'none'`: its one script, its one
 * stylesheet and same-origin fetches and event streams, nothing inline, no framing, forms posted
 * back to the console only.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers of every console page: HTML under the console's policy, never cached (they follow the
 * login). The referrer goes to Switchboard itself: under the API's `no-referrer` a browser posts the
 * console's forms with `Origin: null`, which the same-origin check of the login and the session refuses.
 */
export const ConsolePageHeaders = (): MethodDecorator =>
  applyDecorators(
    Header('content-type', 'text/html; charset=utf-8'),
    Header('content-security-policy', CONSOLE_CSP),
    Header('referrer-policy', 'same-origin'),
    Header('cache-control', 'no-store'),
  );
