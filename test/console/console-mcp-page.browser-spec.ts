/**
 * The MCP upstreams page in headless chromium, with upstreams that fail: a stdio server that writes
 * to stderr and exits at every start, and a Streamable HTTP server nobody listens for, configured
 * with credentials in its URL. The operator reads what runs or is reached (secrets left out), what
 * went wrong, how often, and when the next attempt is.
 */
import type { Page } from 'playwright-core';
import { httpMcpServer, startMcpApp, stdioServer, type McpTestApp } from '../mcp-client/support/mcp-app';
import { FAILING_SERVER_ARGS, FAILING_SERVER_SAYS } from '../mcp-client/support/mcp-servers';
import { freePort } from '../support/free-port';
import { openLoggedInConsole, screenshotBothWidths, type ConsoleBrowser } from './support/console-browser';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from './support/operator-key';

const URL_SECRETS = ['s3cret-password', 's3cret-token'];

let service: McpTestApp;
let browser: ConsoleBrowser;
let page: Page;
let port: number;

beforeAll(async () => {
  port = await freePort();
  const toml = `${OPERATOR_RULE_TOML}
[outbound]
allow_hosts = ["127.0.0.1:${port}"]
${stdioServer('failing', FAILING_SERVER_ARGS[0], FAILING_SERVER_ARGS.slice(1))}
${httpMcpServer('unreachable', `http://ops:${URL_SECRETS[0]}@127.0.0.1:${port}/mcp?token=${URL_SECRETS[1]}`)}`;
  service = await startMcpApp(toml, { SWITCHBOARD_API_KEYS: OPERATOR_KEYS });
  browser = await openLoggedInConsole(service.url, OPERATOR_KEY);
  page = browser.page;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.app.close();
});

afterEach(() => {
  expect(browser.problems.splice(0)).toEqual([]);
});

function row(name: string) {
  return page.locator(`#mcp-servers tbody tr[data-key="${name}"]`);
}

describe('the MCP upstreams page', () => {
  it("shows a failing stdio server's command, its last stderr lines, its failures in a row and the next attempt", async () => {
    await page.goto(`${service.url}/console/mcp`);
    const failing = row('failing');
    const problem = failing.locator('td[data-label="Last error"]');
    await problem.filter({ hasText: /Failed (?:[2-9]|\d{2,}) times in a row/ }).waitFor();

    expect(await failing.locator('td[data-label="Transport"]').textContent()).toContain(
      `stdio: ${process.execPath} -e process.stderr.write(`,
    );
    expect(await problem.textContent()).toMatch(/^Connection closed/);
    expect(await problem.locator('.next-attempt time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await problem.locator('summary', { hasText: 'stderr' }).click();
    expect((await problem.locator('pre').textContent())!.split('\n').slice(-2)).toEqual([
      'starting',
      FAILING_SERVER_SAYS,
    ]);
    await screenshotBothWidths(page, 'mcp-failing');
  });

  it('shows an unreachable server by its URL, without the credentials in it', async () => {
    const unreachable = row('unreachable');
    await unreachable.locator('td[data-label="Last error"]', { hasText: /Failed \d+ times? in a row/ }).waitFor();
    const endpoint = await unreachable.locator('td[data-label="Transport"]').textContent();
    expect(endpoint).toBe(`http: http://redacted@127.0.0.1:${port}/mcp?token=%5Bredacted%5D`);
    const shown = (await page.textContent('main'))!;
    for (const secret of URL_SECRETS) expect(shown).not.toContain(secret);
  });
});
