/**
 * The console in headless chromium against the whole service in durable mode (Postgres, Redis,
 * BullMQ, a worker in the API process) and a real MCP upstream over Streamable HTTP: log in by
 * keyboard, see an agent, watch a task started through the A2A API appear and complete live, read
 * its timeline, cancel a running task by keyboard (confirmed), see the upstream go down and come back. Each page
 * is saved at laptop and phone width under test-results/console/.
 */
import { SendMessageConfiguration, TaskState } from '@a2a-js/sdk';
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';
import { MCP_TOOL_SOURCE, type McpToolSource } from '../../src/mcp-client/mcp-tool-source.interface';
import { startDurableTestApp, type DurableTestApp } from '../support/durable-test-app';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { LONG_AGENT_TOML, TEST_AGENTS_TOML } from '../support/test-agents';
import { httpMcpServer } from '../mcp-client/support/mcp-app';
import { killProcess, startEverythingServer } from '../mcp-client/support/mcp-servers';
import { writeConfigFile } from '../support/config-file';
import { freePort } from '../support/free-port';
import {
  hasFocus,
  openConsoleBrowser,
  screenshotBothWidths,
  tabTo,
  type ConsoleBrowser,
} from './support/console-browser';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from './support/operator-key';

/** Task text is the caller's: the console must show it as text, never run it. */
const HOSTILE_TEXT = '<img src=x onerror="document.body.dataset.pwned = 1">hello from the console test';

let service: DurableTestApp;
let browser: ConsoleBrowser;
let page: Page;
let upstream: ChildProcess;
let upstreamPort: number;

function consoleConfig(port: number): string {
  return `${TEST_AGENTS_TOML}
${LONG_AGENT_TOML}
${OPERATOR_RULE_TOML}
[outbound]
allow_hosts = ["127.0.0.1:${port}"]
${httpMcpServer('everything', `http://127.0.0.1:${port}/mcp`)}`;
}

beforeAll(async () => {
  upstreamPort = await freePort();
  upstream = await startEverythingServer('streamableHttp', upstreamPort);
  service = await startDurableTestApp({
    SWITCHBOARD_CONFIG: writeConfigFile(consoleConfig(upstreamPort)),
    SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
  });
  browser = await openConsoleBrowser();
  page = browser.page;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (upstream) await killProcess(upstream);
});

afterEach(() => {
  // A script error, a failed request or one the Content-Security-Policy refused shows here.
  expect(browser.problems.splice(0)).toEqual([]);
});

/**
 * The text of `selector` once it matches `pattern`. (Locators, not waitForFunction: the console's CSP
 * refuses the string evaluation its polling would need, as it should.)
 */
async function textOnceMatching(selector: string, pattern: RegExp): Promise<string> {
  await page.locator(selector, { hasText: pattern }).waitFor();
  return (await page.textContent(selector))!;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the console in a browser', () => {
  it('sends a visitor to the login form, refuses a wrong key and logs in with an operator key, all by keyboard', async () => {
    await page.goto(`${service.url}/console/tasks`);
    expect(new URL(page.url()).pathname).toBe('/console/login');
    expect(await hasFocus(page, '#api-key')).toBe(true);
    await screenshotBothWidths(page, 'login');

    await page.keyboard.type('not-a-key-0123456789abcdef');
    const [refused] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.keyboard.press('Enter'),
    ]);
    expect(refused.status()).toBe(401);
    expect(await page.textContent('[role="alert"]')).toBe('That API key is not valid.');
    expect(await page.getAttribute('#api-key', 'aria-describedby')).toBe('login-error');
    expect(browser.problems.splice(0)).toEqual(['401 POST /console/login']);
    await screenshotBothWidths(page, 'login-refused');

    expect(await hasFocus(page, '#api-key')).toBe(true);
    await page.keyboard.type(OPERATOR_KEY);
    await tabTo(page, 'form.login button[type="submit"]');
    await Promise.all([page.waitForURL(`${service.url}/console`), page.keyboard.press('Enter')]);
    const cookie = (await page.context().cookies()).find((entry) => entry.name === 'switchboard_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });

    // The overview: this process, the API with its in-process worker, is alive.
    await page.waitForSelector('#processes tbody tr[data-key]');
    expect(await page.textContent('#processes tbody')).toContain(String(process.pid));
  });

  it('shows each hosted agent with its card', async () => {
    await page.goto(`${service.url}/console/agents`);
    const echo = page.locator('#hosted-agents li', { has: page.locator('h3', { hasText: /^echo$/ }) });
    await echo.waitFor();
    expect(await echo.textContent()).toContain('Echoes in three chunks');
    await echo.locator('summary').click();
    const card = JSON.parse((await echo.locator('pre').textContent())!) as { name: string; skills: unknown[] };
    expect(card.name).toBe('echo');
    expect(await page.locator('#hosted-agents h3').allTextContents()).toEqual(
      expect.arrayContaining(['echo', 'slow', 'long']),
    );
    await screenshotBothWidths(page, 'agents');
  });

  it('shows a task started through the A2A API appear in the list and complete, live', async () => {
    await page.goto(`${service.url}/console/tasks`);
    await textOnceMatching('#status', /^Live/);
    const client = await sdkClient(service.url, 'slow', 'JSONRPC');
    const sent = client.sendMessage(userMessage(HOSTILE_TEXT));

    const row = page.locator('#tasks tbody tr', { has: page.locator('td', { hasText: /^slow$/ }) });
    await row.waitFor();
    // It appeared before it ended: the page was not reloaded, the changes stream brought it.
    expect(await row.locator('.state').textContent()).not.toBe('completed');
    const taskId = (await row.getAttribute('data-key'))!;
    await row.locator('.state-completed').waitFor();
    expect(asTask(await sent).id).toBe(taskId);
    expect(await row.locator('td[data-label="Owner"]').textContent()).toBe('tester');
    await screenshotBothWidths(page, 'tasks');

    // Its timeline: the caller's message, shown as text, the agent's artifact, the final status.
    await Promise.all([page.waitForURL(`${service.url}/console/tasks/${taskId}`), row.locator('a').click()]);
    await textOnceMatching('#timeline', /Status: completed/);
    const timeline = (await page.textContent('#timeline'))!;
    expect(timeline).toContain('Message from the caller');
    expect(timeline.split(HOSTILE_TEXT).length).toBeGreaterThanOrEqual(3); // in the message and in the echoed artifact
    expect(timeline).toContain('Artifact');
    expect(await page.locator('#timeline img').count()).toBe(0);
    expect(await page.evaluate('document.body.dataset.pwned')).toBeUndefined();
    expect(await page.textContent('#task-facts')).toMatch(/Agentslow/);
    expect(await page.isHidden('#cancel-task')).toBe(true);
    await screenshotBothWidths(page, 'task-completed');
  });

  it('cancels a running task from its page, by keyboard, and the timeline follows', async () => {
    const client = await sdkClient(service.url, 'long', 'JSONRPC');
    const started = asTask(
      await client.sendMessage({
        ...userMessage('twenty characters or more'),
        configuration: SendMessageConfiguration.fromJSON({ returnImmediately: true }),
      }),
    );
    await page.goto(`${service.url}/console/tasks/${started.id}`);
    await page.waitForSelector('#task-facts .state-working');
    await page.waitForSelector('#cancel-task:not([hidden])');
    // The events stream brings the agent's next chunks: the artifact grows with no reload.
    const artifact = page.locator('#timeline .event-artifact .event-text');
    const loaded = (await artifact.textContent())!;
    await artifact.filter({ hasNotText: new RegExp(`^${escapeRegExp(loaded)}$`) }).waitFor();
    expect((await artifact.textContent())!.startsWith(loaded)).toBe(true);
    await screenshotBothWidths(page, 'task-running');

    await tabTo(page, '#cancel-task');
    await page.keyboard.press('Enter');
    // The confirmation opens on its safe choice; the keyboard moves on to the other.
    expect(await hasFocus(page, 'dialog#confirm-cancel[open] button[value="keep"]')).toBe(true);
    await tabTo(page, 'dialog#confirm-cancel button[value="cancel"]');
    const [cancel] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith(`/api/admin/tasks/${started.id}/cancel`)),
      page.keyboard.press('Enter'),
    ]);
    expect(cancel.ok()).toBe(true);
    await page.waitForSelector('#task-facts .state-canceled');
    // The status it had when the page opened, then the one it ended in.
    expect(await textOnceMatching('#timeline', /Status: canceled/)).toMatch(/Status: working.*Status: canceled/s);
    expect(await page.isHidden('#cancel-task')).toBe(true);
    expect((await client.getTask({ id: started.id, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await screenshotBothWidths(page, 'task-canceled');
  });

  it('filters the task list by state and agent, through its form', async () => {
    await page.goto(`${service.url}/console/tasks`);
    await page.selectOption('#filter-state', 'TASK_STATE_CANCELED');
    await page.fill('#filter-agent', 'long');
    await Promise.all([
      page.waitForURL(/\/console\/tasks\?state=TASK_STATE_CANCELED&agent=long/),
      page.click('form.filters button[type="submit"]'),
    ]);
    await page.locator('#tasks tbody tr[data-key]').first().waitFor();
    expect(await page.locator('#tasks td[data-label="Agent"]').allTextContents()).toEqual(['long']);
    expect(await page.locator('#tasks td[data-label="State"]').allTextContents()).toEqual(['canceled']);
    // The form shows the filters it was sent with.
    expect(await page.inputValue('#filter-state')).toBe('TASK_STATE_CANCELED');

    await page.selectOption('#filter-state', 'TASK_STATE_WORKING');
    await page.focus('#filter-owner');
    await Promise.all([page.waitForURL(/state=TASK_STATE_WORKING/), page.keyboard.press('Enter')]);
    expect(await textOnceMatching('#tasks tbody', /No tasks match/)).toBe('No tasks match.');
  });

  it('shows an MCP upstream go down and, restarted and reconnected from the console, come back', async () => {
    await page.goto(`${service.url}/console/mcp`);
    const row = page.locator('#mcp-servers tbody tr[data-key="everything"]');
    await row.locator('.state-connected').waitFor();
    expect(await row.locator('td[data-label="Tools"] summary').textContent()).toMatch(/^\d+ tools$/);
    await screenshotBothWidths(page, 'mcp-connected');

    await killProcess(upstream);
    // An agent's call finds it gone at once, and the connection starts retrying.
    const tools = service.app.get<symbol, McpToolSource>(MCP_TOOL_SOURCE);
    await expect(tools.call('mcp_everything_echo', { message: 'anyone?' })).rejects.toThrow(/unavailable/);
    await row.locator('.state-retrying').waitFor();
    expect(await row.locator('td[data-label="Last error"]').textContent()).not.toBe('—');
    await screenshotBothWidths(page, 'mcp-down');

    upstream = await startEverythingServer('streamableHttp', upstreamPort);
    const [reconnect] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/api/admin/mcp-servers/everything/reconnect')),
      row.locator('button', { hasText: 'Reconnect' }).click(),
    ]);
    expect(reconnect.ok()).toBe(true);
    await row.locator('.state-connected').waitFor();
    expect(await row.locator('td[data-label="Last error"]').textContent()).toBe('—');
    await screenshotBothWidths(page, 'mcp-back');
  });

  it('shows the processes, queues, tasks by state and error rate on the overview', async () => {
    await page.goto(`${service.url}/console`);
    await page.locator('#task-states .state-completed').waitFor();
    await page.locator('#task-states .state-canceled').waitFor();
    expect(await page.locator('#queues tbody tr[data-key]').count()).toBeGreaterThan(0);
    expect(await page.textContent('#errors')).toMatch(/Error rate/);
    await screenshotBothWidths(page, 'overview');
  });

  it('logs out, after which a page sends the browser to the login form again', async () => {
    await page.goto(`${service.url}/console`);
    await Promise.all([page.waitForURL(`${service.url}/console/login`), page.click('form.logout button')]);
    await page.goto(`${service.url}/console/agents`);
    expect(new URL(page.url()).pathname).toBe('/console/login');
  });
});
