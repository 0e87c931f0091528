import crypto = require('node:crypto');
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp } from '../../src/app.factory';
import { bearer, TEST_API_KEY, testConfig } from '../support/test-app';
import { callableRoutes, label, recordRoutes, type Route, samplePath } from './routes';
import { startAppWithTestRoutes } from './test-routes';

/** Routes that answer without a key. Each one is open to anyone who reaches the port: probes, agent cards, and the console's login and assets. */
const PUBLIC_ROUTES = [
  'GET /healthz',
  'GET /readyz',
  'GET /.well-known/agent-card.json',
  'GET /.well-known/agent.json',
  'GET /a2a/agents',
  'GET /a2a/agents/:name/agent-card.json',
  'GET /a2a/agents/:name/.well-known/agent-card.json',
  'GET /a2a/agents/:name/.well-known/agent.json',
  'GET /console/login',
  'POST /console/login',
  'POST /console/logout',
  'GET /console/assets/:file',
];
/** Routes that must exist, so that an empty enumeration cannot pass. */
const KNOWN_ROUTES = [
  ...PUBLIC_ROUTES,
  'GET /metrics',
  'POST /a2a',
  'POST /a2a/agents/:name',
  'POST /a2a/tasks/send',
  'GET /a2a/tasks/:id',
];
const WRONG_KEY = 'wrong-key-0123456789abcdef';
const CHALLENGE = 'Bearer realm="switchboard"';

interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}

function request(base: string, route: Route, headers: Record<string, string> = {}): Promise<Response> {
  const withBody = !['GET', 'HEAD'].includes(route.method);
  return fetch(base + samplePath(route.url), {
    method: route.method,
    headers: withBody ? { 'content-type': 'application/json', ...headers } : headers,
    body: withBody ? '{}' : undefined,
    redirect: 'manual',
  });
}

/** The console's pages answer a refusal by sending the browser to the login form (test/console covers them). */
const isConsolePage = (route: Route) => /^\/console(\/|$)/.test(route.url);
const sentToLogin = (response: Response) =>
  response.status === 303 && response.headers.get('location') === '/console/login';

describe('bearer authentication', () => {
  let app: NestFastifyApplication;
  let url: string;
  let routes: Route[];
  /** The admin API and MCP reconnects: for keys granted `admin` (test/operator covers those). */
  const OPERATOR_ROUTE = /^\/api\/admin\/|^\/api\/mcp\/servers\/:name\/reconnect$/;
  const isPublic = (route: Route) =>
    PUBLIC_ROUTES.includes(`${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`);
  const protectedRoutes = () => routes.filter((route) => !isPublic(route));

  beforeAll(async () => {
    app = await createHttpApp(testConfig());
    const recorded = recordRoutes(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = await app.getUrl();
    routes = callableRoutes(recorded);
  });

  afterAll(async () => {
    await app?.close();
  });

  it('enumerates the registered routes, including the known ones', () => {
    expect(routes.map(label)).toEqual(expect.arrayContaining(KNOWN_ROUTES));
    expect(protectedRoutes().length).toBeGreaterThanOrEqual(1);
  });

  it('answers 401 without a key on every route but the public ones', async () => {
    const wrong: string[] = [];
    for (const route of protectedRoutes()) {
      const response = await request(url, route);
      if (isConsolePage(route)) {
        if (!sentToLogin(response)) wrong.push(`${label(route)} -> ${response.status}`);
        continue;
      }
      const body = (await response.json()) as ErrorBody;
      if (
        response.status !== 401 ||
        response.headers.get('www-authenticate') !== CHALLENGE ||
        body.error !== 'Unauthorized' ||
        !/missing bearer token/.test(body.message)
      ) {
        wrong.push(`${label(route)} -> ${response.status} ${JSON.stringify(body)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers 401 with a wrong key on every route but the public ones, without echoing the key', async () => {
    const wrong: string[] = [];
    for (const route of protectedRoutes()) {
      const response = await request(url, route, bearer(WRONG_KEY));
      const text = await response.text();
      const challenge = response.headers.get('www-authenticate');
      if (isConsolePage(route)) {
        if (!sentToLogin(response) || text.includes(WRONG_KEY)) wrong.push(`${label(route)} -> ${response.status}`);
        continue;
      }
      if (response.status !== 401 || challenge !== `${CHALLENGE}, error="invalid_token"` || text.includes(WRONG_KEY)) {
        wrong.push(`${label(route)} -> ${response.status} ${challenge} ${text}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets a valid key through on every route, but to operator routes only a key granted admin', async () => {
    const refused: string[] = [];
    for (const route of protectedRoutes()) {
      const response = await request(url, route, bearer());
      const operatorOnly = OPERATOR_ROUTE.test(route.url);
      const answered = isConsolePage(route)
        ? sentToLogin(response)
        : operatorOnly
          ? response.status === 403 && /admin = true/.test(((await response.json()) as ErrorBody).message)
          : response.status !== 401 && response.status !== 403;
      if (!answered) refused.push(`${label(route)} -> ${response.status}`);
    }
    expect(refused).toEqual([]);
  });

  it('serves the public routes without a key', async () => {
    const answers: Record<string, number> = {};
    for (const route of routes.filter(isPublic)) answers[label(route)] = (await request(url, route)).status;
    expect(Object.keys(answers)).toEqual(expect.arrayContaining(PUBLIC_ROUTES));
    expect(Object.values(answers)).not.toContain(401);
    expect(answers['GET /healthz']).toBe(200);
  });

  it('answers in the standard error shape, naming the problem', async () => {
    const missing = await fetch(`${url}/metrics`);
    expect(await missing.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'missing bearer token: send "Authorization: Bearer <api key>"',
    });
    const invalid = await fetch(`${url}/metrics`, { headers: bearer(WRONG_KEY) });
    expect(await invalid.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'invalid API key' });
  });

  it('treats another scheme as missing bearer credentials', async () => {
    const response = await fetch(`${url}/metrics`, {
      headers: { authorization: `Basic ${Buffer.from(`u:${TEST_API_KEY}`).toString('base64')}` },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(((await response.json()) as ErrorBody).message).toMatch(/must use the Bearer scheme/);
  });

  it('protects the HEAD twin of a protected GET route', async () => {
    const response = await fetch(`${url}/metrics`, { method: 'HEAD' });
    expect(response.status).toBe(401);
  });

  it('checks a key once per request, though both the rate-limit and the auth guard need it', async () => {
    const hash = jest.spyOn(crypto, 'createHash');
    try {
      expect((await fetch(`${url}/metrics`, { headers: bearer() })).status).toBe(200);
      expect(hash.mock.calls.filter(([algorithm]) => algorithm === 'sha256')).toHaveLength(1);
    } finally {
      hash.mockRestore();
    }
  });
});

describe('the authenticated principal', () => {
  const BARE_KEY = 'bare-key-0123456789abcdef';
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startAppWithTestRoutes(
      testConfig({ SWITCHBOARD_API_KEYS: `${BARE_KEY},tester=${TEST_API_KEY}` }),
    ));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('is the name of the key the request carried', async () => {
    const response = await fetch(`${url}/__test/whoami`, { headers: bearer() });
    expect(await response.json()).toEqual({ principal: { name: 'tester' } });
  });

  it('is key-<position> for a key configured without a name', async () => {
    const response = await fetch(`${url}/__test/whoami`, { headers: bearer(BARE_KEY) });
    expect(await response.json()).toEqual({ principal: { name: 'key-1' } });
  });
});

describe('without configured keys (loopback or allow_open only)', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startAppWithTestRoutes(testConfig({ SWITCHBOARD_API_KEYS: '' })));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('lets every request through, with no principal', async () => {
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    const response = await fetch(`${url}/__test/whoami`, { headers: bearer('any-key-at-all-0123456789') });
    expect(await response.json()).toEqual({ principal: null });
  });
});
