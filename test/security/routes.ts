import type { NestFastifyApplication } from '@nestjs/platform-fastify';

export interface Route {
  method: string;
  url: string;
}

/**
 * Records every route Fastify registers from now on; call before the app is initialized. Returns
 * a live list: read it after `listen()`.
 */
export function recordRoutes(app: NestFastifyApplication): Route[] {
  const routes: Route[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
  return routes;
}

/** The routes a client can call: no CORS preflights, no HEAD twins that Fastify adds for each GET. */
export function callableRoutes(routes: Route[]): Route[] {
  const gets = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.url));
  return routes.filter((r) => r.method !== 'OPTIONS' && !(r.method === 'HEAD' && gets.has(r.url)));
}

/** A concrete path for a route pattern: each `:param` and wildcard filled with a placeholder. */
export function samplePath(url: string): string {
  return url.replace(/:[A-Za-z0-9_]+(\([^)]*\))?/g, 'x').replace(/\*/g, 'x');
}

export const label = (route: Route) => `${route.method} ${route.url}`;
