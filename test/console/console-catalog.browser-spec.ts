/**
 * The catalog's console pages in headless chromium, on a durable service (Postgres, Redis) with a
 * real MCP upstream (server-everything over Streamable HTTP), all by keyboard: an MCP server tried
 * (its tools shown), saved, edited against a stale version (412, reloaded), refused with its
 * problems, and deleted; a key created and shown once; the audit trail of it all. The file's entries
 * are read-only. Each page is saved at laptop and phone width under test-results/console/.
 */
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';
import { httpMcpServer } from '../mcp-client/support/mcp-app';
import { killProcess, startEverythingServer } from '../mcp-client/support/mcp-servers';
import { writeConfigFile } from '../support/config-file';
import { startDurableTestApp, type DurableTestApp } from '../support/durable-test-app';
import { freePort } from '../support/free-port';
import type { Json } from '../support/json';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { bearer } from '../support/test-app';
import {
  hasFocus,
  openConsoleBrowser,
  screenshotBothWidths,
  tabTo,
  type ConsoleBrowser,
} from './support/console-browser';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from './support/operator-key';

let service: DurableTestApp;
let browser: ConsoleBrowser;
let page: Page;
let upstream: ChildProcess;
let mcpUrl: string;
let createdKey: string;

beforeAll(async () => {
  const port = await freePort();
  mcpUrl = `http://127.0.0.1:${port}/mcp`;
  upstream = await startEverythingServer('streamableHttp', port);
  service = await startDurableTestApp({
    SWITCHBOARD_CONFIG: writeConfigFile(`${TEST_AGENTS_TOML}
${OPERATOR_RULE_TOML}
[outbound]
allow_hosts = ["127.0.0.1"]
${httpMcpServer('from-file', mcpUrl)}`),
    SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
  });
  browser = await openConsoleBrowser();
  page = browser.page;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: service.url });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (upstream) await killProcess(upstream);
});

afterEach(() => {
  expect(browser.problems.splice(0)).toEqual([]);
});

function row(name: string) {
  return page.locator(`#catalog-entries tbody tr[data-key="${name}"]`);
}

/** Tabs to `selector` and presses Enter, as a keyboard user would. */
async function press(selector: string): Promise<void> {
  await tabTo(page, selector, 80);
  await page.keyboard.press('Enter');
}

async function adminApi(method: string, path: string, body?: Json, headers: Record<string, string> = {}) {
  const response = await fetch(`${service.url}/api/admin${path}`, {
    method,
    headers: { ...bearer(OPERATOR_KEY), ...(body && { 'content-type': 'application/json' }), ...headers },
    body: body && JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe('the catalog pages in a browser', () => {
  it('logs in by keyboard and shows the file entry read-only, with its source', async () => {
    await page.goto(`${service.url}/console/login`);
    await page.keyboard.type(OPERATOR_KEY);
    await Promise.all([page.waitForURL(`${service.url}/console`), page.keyboard.press('Enter')]);

    await press('nav[aria-label="Console"] a[href="/console/catalog/mcp-servers"]');
    await page.waitForURL(`${service.url}/console/catalog/mcp-servers`);
    const fromFile = row('from-file');
    await fromFile.waitFor();
    expect(await fromFile.locator('td[data-label="Source"]').textContent()).toBe('config file (read-only)');
    expect(await fromFile.locator('td[data-label="Entry"]').textContent()).toContain(`http: ${mcpUrl}`);
    expect(await fromFile.locator('button').count()).toBe(0);
  });

  it('tries an MCP server before saving it, shows the tools it would bring, and saves it', async () => {
    await press('#add-entry');
    expect(await hasFocus(page, '#editor-heading')).toBe(true);
    expect(await page.textContent('#editor-heading')).toBe('Add an MCP server');
    await tabTo(page, '#field-name');
    await page.keyboard.type('docs');
    await tabTo(page, '#field-transport-url');
    await page.keyboard.type('http://127.0.0.1:1/mcp');
    await press('#try-entry');
    await page
      .locator('#trial-status.problem', { hasText: /^Test connection failed: MCP server "docs" is unavailable: / })
      .waitFor();
    expect(browser.problems.splice(0)).toEqual(['502 POST /api/admin/mcp-servers/test']);

    await tabTo(page, '#field-transport-url');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(mcpUrl);
    // The fields and the JSON of the whole entry are kept in step.
    expect(JSON.parse(await page.inputValue('#entry-json'))).toEqual({
      name: 'docs',
      transport: { type: 'http', url: mcpUrl },
    });

    await press('#try-entry');
    const result = page.locator('#trial-result');
    await page.locator('#trial-status', { hasText: /^Connected: it would bring \d+ tools\.$/ }).waitFor();
    expect(await result.locator('li code').allTextContents()).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    await screenshotBothWidths(page, 'catalog-mcp-test-connection');

    await press('#save-entry');
    await page.locator('#outcome', { hasText: 'Added docs.' }).waitFor();
    expect(await page.isHidden('#editor')).toBe(true);
    expect(await hasFocus(page, '#add-entry')).toBe(true);
    const docs = row('docs');
    await docs.waitFor();
    expect(await docs.locator('td[data-label="Source"]').textContent()).toBe('admin API');
    expect(await docs.locator('td[data-label="Version"]').textContent()).toBe('1');
    await screenshotBothWidths(page, 'catalog-mcp-servers');
  });

  it("shows the API's problems next to the form, and a 412 when someone else changed the entry, then saves after a reload", async () => {
    await press('button[data-edit="docs"]');
    await page.locator('#editor-heading', { hasText: 'Edit docs (version 1)' }).waitFor();
    expect(await page.getAttribute('#field-name', 'readonly')).toBe('');

    await tabTo(page, '#field-transport-url');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('not a url');
    await press('#save-entry');
    await page.locator('#form-problems li', { hasText: /^transport\.url: / }).waitFor();
    expect(await page.getAttribute('#field-transport-url', 'aria-invalid')).toBe('true');
    expect(browser.problems.splice(0)).toEqual(['400 PUT /api/admin/mcp-servers/docs']);

    // Someone else saves a new version meanwhile.
    const changed = await adminApi('PUT', '/mcp-servers/docs', {
      name: 'docs',
      transport: { type: 'http', url: mcpUrl },
      timeout_secs: 20,
    });
    expect(changed.status).toBe(200);
    await tabTo(page, '#field-transport-url');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(mcpUrl);
    await tabTo(page, '#field-timeout_secs');
    await page.keyboard.type('10');
    await press('#save-entry');
    const problems = page.locator('#form-problems');
    await problems.locator('text=/Changed by someone else since you opened it \\(it is now at version 2\\)/').waitFor();
    expect(await hasFocus(page, '#form-problems')).toBe(true);
    expect(browser.problems.splice(0)).toEqual(['412 PUT /api/admin/mcp-servers/docs']);
    await screenshotBothWidths(page, 'catalog-mcp-412');

    await press('#form-problems button');
    await page.locator('#editor-heading', { hasText: 'Edit docs (version 2)' }).waitFor();
    expect(await page.inputValue('#field-timeout_secs')).toBe('20');
    await tabTo(page, '#field-timeout_secs');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('10');
    await press('#save-entry');
    await page.locator('#outcome', { hasText: 'Saved docs: now at version 3.' }).waitFor();
    await row('docs').locator('td[data-label="Version"]', { hasText: /^3$/ }).waitFor();
  });

  it('deletes the MCP server once confirmed', async () => {
    await press('button[data-delete="docs"]');
    // The confirmation opens on its safe choice.
    expect(await hasFocus(page, 'dialog#confirm-delete[open] button[value="keep"]')).toBe(true);
    expect(await page.textContent('#confirm-delete-heading')).toBe('Delete docs?');
    await press('dialog#confirm-delete button[value="delete"]');
    await page.locator('#outcome', { hasText: 'Deleted docs.' }).waitFor();
    await row('docs').waitFor({ state: 'detached' });
    expect(await hasFocus(page, '#add-entry')).toBe(true);
    expect((await adminApi('GET', '/mcp-servers/docs')).status).toBe(404);
  });

  it("fetches an external agent's card before saving it", async () => {
    await page.goto(`${service.url}/console/catalog/external-agents`);
    await press('#add-entry');
    await tabTo(page, '#field-name');
    await page.keyboard.type('self');
    await tabTo(page, '#field-url');
    await page.keyboard.type(service.url);
    await press('#try-entry');
    const result = page.locator('#trial-result');
    await page.locator('#trial-status', { hasText: 'Card read from' }).waitFor();
    expect(await page.textContent('#trial-status')).toBe(`Card read from ${service.url}/.well-known/agent-card.json.`);
    expect(await result.locator('dd').first().textContent()).toBe('echo');
    await screenshotBothWidths(page, 'catalog-fetch-card');
    await press('#close-editor');
    expect(await page.isHidden('#editor')).toBe(true);
    expect(await hasFocus(page, '#add-entry')).toBe(true);
    expect((await adminApi('GET', '/external-agents/self')).status).toBe(404);
  });

  it('adds an agent written as JSON, the fields following it', async () => {
    await page.goto(`${service.url}/console/catalog/agents`);
    await press('#add-entry');
    await tabTo(page, '#entry-json');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(
      JSON.stringify({ name: 'parrot', description: 'Says it back', executor: { type: 'echo', chunks: 1 } }),
    );
    expect(await page.inputValue('#field-name')).toBe('parrot');
    expect(await page.inputValue('#field-description')).toBe('Says it back');
    expect(await page.getAttribute('#entry-json', 'aria-invalid')).toBeNull();
    await press('#save-entry');
    await page.locator('#outcome', { hasText: 'Added parrot.' }).waitFor();
    expect(await row('parrot').locator('td[data-label="Entry"]').textContent()).toContain(
      'echo executor: Says it back',
    );
  });

  it('creates a key and shows it once, with a copy button; then no page or answer holds it', async () => {
    await page.goto(`${service.url}/console/catalog/keys`);
    await press('#add-entry');
    expect(await page.textContent('#editor-heading')).toBe('Create a key');
    await tabTo(page, '#field-name');
    await page.keyboard.type('ci-bot');
    await tabTo(page, '#field-agents');
    await page.keyboard.type('echo, slow');
    await press('#save-entry');

    await page.locator('#created-key').waitFor();
    expect(await hasFocus(page, '#created-key-heading')).toBe(true);
    expect(await page.textContent('#created-key')).toContain('you will not see it again');
    createdKey = await page.inputValue('#created-key-value');
    expect(createdKey).toMatch(/^sbk_/);
    await press('#copy-key');
    await page.locator('#outcome', { hasText: 'Key ci-bot copied to the clipboard.' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(createdKey);
    await screenshotBothWidths(page, 'catalog-key-created');

    await press('#forget-key');
    expect(await page.isHidden('#created-key')).toBe(true);
    const ciBot = row('ci-bot');
    await ciBot.waitFor();
    expect(await ciBot.locator('td[data-label="Entry"]').textContent()).toContain('agents: echo, slow');
    expect(await page.content()).not.toContain(createdKey);
    await page.reload();
    await row('ci-bot').waitFor();
    expect(await page.content()).not.toContain(createdKey);
    expect((await adminApi('GET', '/keys')).text).not.toContain(createdKey);
    expect((await adminApi('GET', '/catalog')).text).not.toContain(createdKey);
    await screenshotBothWidths(page, 'catalog-keys');
  });

  it('shows the audit trail of these changes, filtered by keyboard', async () => {
    await page.goto(`${service.url}/console/audit`);
    await row2('catalog.create', 'key:ci-bot').waitFor();
    await tabTo(page, '#filter-target');
    await page.keyboard.type('mcp_server:docs');
    await Promise.all([page.waitForURL(/target=mcp_server%3Adocs/), page.keyboard.press('Enter')]);
    await row2('catalog.delete', 'mcp_server:docs').waitFor();
    const actions = await page.locator('#audit td[data-label="Action"]').allTextContents();
    expect(actions).toEqual(['catalog.delete', 'catalog.update', 'catalog.update', 'catalog.create']);
    expect(await page.locator('#audit td[data-label="Actor"]').allTextContents()).toEqual(Array(4).fill('operator'));
    expect(await page.content()).not.toContain(createdKey);
    await screenshotBothWidths(page, 'audit');
  });

  it('pages through a long audit trail by keyboard', async () => {
    const rule = (index: number) => ({ name: 'many', keys: ['ci-bot'], tools: [`tool_${index}`] });
    expect((await adminApi('POST', '/rules', rule(0))).status).toBe(201);
    for (let index = 1; index <= 50; index++)
      expect((await adminApi('PUT', '/rules/many', rule(index))).status).toBe(200);
    await page.goto(`${service.url}/console/audit?target=rule:many`);
    await page.locator('#status', { hasText: '50 entries shown; more are older.' }).waitFor();
    await press('#more-audit');
    await page.locator('#status', { hasText: '51 entries shown.' }).waitFor();
    expect(await page.isHidden('#more-audit')).toBe(true);
    expect(await hasFocus(page, '#main')).toBe(true);
    expect(await page.locator('#audit tbody tr').last().locator('td[data-label="Action"]').textContent()).toBe(
      'catalog.create',
    );
  });
});

function row2(action: string, target: string) {
  return page
    .locator('#audit tbody tr', {
      has: page.locator(`td[data-label="Target"]`, { hasText: target }),
    })
    .filter({ has: page.locator('td[data-label="Action"]', { hasText: action }) });
}
