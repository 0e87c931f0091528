import type { FastifyRequest } from 'fastify';

/** The console's session cookie (set by its login form): its value is the API key, httpOnly and SameSite=Strict. */
export const CONSOLE_SESSION_COOKIE = 'switchboard_console';

/** The only paths where the cookie stands for `Authorization`: the console and the admin API it calls. */
const SESSION_PATHS = /^\/(console|api\/admin)(\/|\?|$)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The API key a request presents in the console's cookie, on the paths where the cookie counts; else undefined. */
export function consoleSessionKey(request: Pick<FastifyRequest, 'url' | 'headers'>): string | undefined {
  if (!SESSION_PATHS.test(request.url)) return undefined;
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === CONSOLE_SESSION_COOKIE)
      return decodeURIComponent(pair.slice(eq + 1).trim()) || undefined;
  }
  return undefined;
}

/**
 * Whether a request made with the cookie may change something: a browser sends the cookie with a
 * form posted from any site, so an unsafe method must come with an `Origin` of this very host
 * (SameSite=Strict is the first defence, this the second, for browsers that ignore it).
 */
export function sameOriginOrSafe(request: Pick<FastifyRequest, 'method' | 'headers'>): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const origin = request.headers.origin;
  if (!origin || !URL.canParse(origin)) return false;
  return new URL(origin).host === request.headers.host;
}
