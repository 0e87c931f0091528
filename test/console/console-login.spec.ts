/**
 * The console's login and pages over plain HTTP: the cookie it sets, the form again on a refused key,
 * the redirect of a page without a login, the console's own Content-Security-Policy, and the console
 * open when the service runs without keys.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { writeConfigFile } from '../support/config-file';
import { startTestApp, testConfig, TEST_API_KEY } from '../support/test-app';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from './support/operator-key';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const TRACE_UI = `
[tracing]
trace_url = "http://jaeger.example:16686/trace/{trace_id}"
`;

describe('console login (keys required)', () => {
  let app: NestFastifyApplication;
  let url: string;
  let origin: Record<string, string>;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(
      testConfig({
        SWITCHBOARD_CONFIG: writeConfigFile(OPERATOR_RULE_TOML + TRACE_UI),
        SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
      }),
    ));
    origin = { origin: url };
  });

  afterAll(() => app.close());

  const login = (key: string, headers: Record<string, string> = origin) =>
    fetch(`${url}/console/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...FORM, ...headers },
      body: new URLSearchParams({ api_key: key }),
    });

  it('sends a page without a login to the login form', async () => {
    for (const path of [
      '/console',
      '/console/tasks',
      '/console/tasks/some-task',
      '/console/catalog/keys',
      '/console/audit',
    ]) {
      const response = await fetch(`${url}${path}`, { redirect: 'manual' });
      expect([path, response.status, response.headers.get('location')]).toEqual([path, 303, '/console/login']);
    }
  });

  it('serves the login form under the console policy', async () => {
    const response = await fetch(`${url}/console/login`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy')!;
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    const page = await response.text();
    expect(page).toMatch(/<label for="api-key">API key<\/label>\s*<input id="api-key" name="api_key" type="password"/);
    expect(page).not.toMatch(/<script>|\son\w+=/);
  });

  it('logs in with an operator key: an httpOnly, SameSite=Strict session cookie holding the key', async () => {
    const response = await login(OPERATOR_KEY);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/console');
    expect(response.headers.get('set-cookie')).toBe(
      `switchboard_console=${OPERATOR_KEY}; Path=/; HttpOnly; SameSite=Strict`,
    );
    const page = await fetch(`${url}/console/tasks`, { headers: { cookie: `switchboard_console=${OPERATOR_KEY}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<main id="main" tabindex="-1" data-page="tasks">');
  });

  it('marks the cookie Secure when the login came over https', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/console/login',
      headers: { ...FORM, host: 'console.example', origin: 'https://console.example', 'x-forwarded-proto': 'https' },
      payload: `api_key=${OPERATOR_KEY}`,
    });
    // Only a trusted proxy's X-Forwarded-Proto counts: without server.trust_proxy, the request came over http.
    expect(response.headers['set-cookie']).not.toContain('Secure');
    const trusting = await startTestApp(
      testConfig({
        SWITCHBOARD_CONFIG: writeConfigFile(`[server]\ntrust_proxy = true\n${OPERATOR_RULE_TOML}`),
        SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
      }),
    );
    try {
      const proxied = await trusting.app.inject({
        method: 'POST',
        url: '/console/login',
        headers: { ...FORM, host: 'console.example', origin: 'https://console.example', 'x-forwarded-proto': 'https' },
        payload: `api_key=${OPERATOR_KEY}`,
      });
      expect(proxied.headers['set-cookie']).toContain('; Secure');
    } finally {
      await trusting.app.close();
    }
  });

  it('answers a wrong key with the form again and the reason (401), a key without operator rights with 403', async () => {
    const wrong = await login('not-a-key-0123456789abcdef');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(await wrong.text()).toMatch(
      /<p class="error" id="login-error" role="alert">That API key is not valid.<\/p>/,
    );

    const tester = await login(TEST_API_KEY);
    expect(tester.status).toBe(403);
    expect(await tester.text()).toContain('The key &quot;tester&quot; has no operator rights');
    const page = await fetch(`${url}/console`, {
      redirect: 'manual',
      headers: { cookie: `switchboard_console=${TEST_API_KEY}` },
    });
    expect(page.status).toBe(303);
  });

  it('refuses a login posted from another site', async () => {
    const response = await login(OPERATOR_KEY, { origin: 'https://elsewhere.example' });
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('logs out by clearing the cookie', async () => {
    const response = await fetch(`${url}/console/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...origin, cookie: `switchboard_console=${OPERATOR_KEY}` },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/console/login');
    expect(response.headers.get('set-cookie')).toBe(
      'switchboard_console=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0',
    );
  });

  it('escapes what a page shows of its address', async () => {
    const id = '"><script>alert(1)</script>';
    const response = await fetch(
      `${url}/console/tasks/${encodeURIComponent(id)}?agent=${encodeURIComponent('"><b>x')}`,
      {
        headers: { cookie: `switchboard_console=${OPERATOR_KEY}` },
      },
    );
    const page = await response.text();
    expect(page).toContain('data-task-id="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page).not.toContain('<script>alert(1)');
    const tasks = await (
      await fetch(`${url}/console/tasks?agent=${encodeURIComponent('"><b>x')}`, {
        headers: { cookie: `switchboard_console=${OPERATOR_KEY}` },
      })
    ).text();
    expect(tasks).toContain('value="&quot;&gt;&lt;b&gt;x"');
  });

  it("escapes the audit page's filters, and knows only the catalog's kinds", async () => {
    const headers = { cookie: `switchboard_console=${OPERATOR_KEY}` };
    const audit = await (await fetch(`${url}/console/audit?actor=${encodeURIComponent('"><b>x')}`, { headers })).text();
    expect(audit).toContain('value="&quot;&gt;&lt;b&gt;x"');
    expect(audit).not.toContain('<b>x');
    for (const kind of ['mcp-servers', 'external-agents', 'agents', 'keys', 'rules']) {
      const page = await fetch(`${url}/console/catalog/${kind}`, { headers });
      expect(page.status).toBe(200);
      // This service has no database: what is added through the console is lost at restart, and the page says so.
      expect(await page.text()).toContain('lost when it stops');
    }
    expect((await fetch(`${url}/console/catalog/widgets`, { headers })).status).toBe(404);
  });

  it("gives a task's page the trace UI's address, which console.js links the task's trace to", async () => {
    const page = await (
      await fetch(`${url}/console/tasks/some-task`, { headers: { cookie: `switchboard_console=${OPERATOR_KEY}` } })
    ).text();
    expect(page).toContain('data-trace-url="http://jaeger.example:16686/trace/{trace_id}"');
  });

  it('serves its script and stylesheet without a login, and nothing else from its assets', async () => {
    const script = await fetch(`${url}/console/assets/console.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    const style = await fetch(`${url}/console/assets/console.css`);
    expect([style.status, style.headers.get('content-type')]).toEqual([200, 'text/css; charset=utf-8']);
    expect((await fetch(`${url}/console/assets/..%2Fconsole.module.ts`)).status).toBe(404);
  });

  it('takes form bodies on console routes only: elsewhere they stay an unsupported media type', async () => {
    const answer = async (contentType: string) => {
      const response = await fetch(`${url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': contentType, authorization: `Bearer ${TEST_API_KEY}` },
        body: 'a=b',
      });
      return [response.status, await response.text()];
    };
    expect(await answer(FORM['content-type'])).toEqual(await answer('application/xml'));
  });
});

describe('console without keys', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_API_KEYS: undefined })));
  });

  afterAll(() => app.close());

  it('is open, with no login form and no logout', async () => {
    const page = await fetch(`${url}/console`, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('/console/logout');
    const form = await fetch(`${url}/console/login`, { redirect: 'manual' });
    expect([form.status, form.headers.get('location')]).toEqual([303, '/console']);
  });
});
