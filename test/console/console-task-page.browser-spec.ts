/**
 * A task's page in headless chromium, against the service in durable mode (Postgres, Redis, BullMQ,
 * a worker in the API process): a timeline dated entry by entry in the order things happened, states
 * coloured by what they mean, Cancel only where it can act and only once confirmed, and a logout
 * that does not pass for the page's main action.
 */
import { CancelTaskRequest, SendMessageConfiguration, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import type { Page } from 'playwright-core';
import { startDurableTestApp, type DurableTestApp } from '../support/durable-test-app';
import { asTask, sdkClient, userMessage } from '../support/sdk-client';
import { LONG_AGENT_TOML, TEST_AGENTS_TOML } from '../support/test-agents';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import {
  computedStyle,
  openLoggedInConsole,
  screenshotBothWidths,
  type ConsoleBrowser,
} from './support/console-browser';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from './support/operator-key';

/** The stylesheet's colours (console.css), as the browser computes them. */
const RED = 'rgb(164, 22, 26)';
const GREEN = 'rgb(20, 108, 46)';
const GREY = 'rgb(74, 82, 96)';
const BLUE = 'rgb(10, 88, 202)';
const AMBER = 'rgb(122, 77, 0)';

let service: DurableTestApp;
let browser: ConsoleBrowser;
let page: Page;

beforeAll(async () => {
  service = await startDurableTestApp({
    SWITCHBOARD_CONFIG: writeConfigFile(`${TEST_AGENTS_TOML}${LONG_AGENT_TOML}${OPERATOR_RULE_TOML}`),
    SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
  });
  browser = await openLoggedInConsole(service.url, OPERATOR_KEY);
  page = browser.page;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

afterEach(() => {
  expect(browser.problems.splice(0)).toEqual([]);
});

/** A task of `agent` left running (`long` streams for ten seconds), once its first artifact chunk is out. */
async function runningTask(client: Client): Promise<string> {
  const stream = client.sendMessageStream(userMessage('twenty characters or more'));
  for await (const event of stream) {
    if (event.payload?.$case === 'artifactUpdate') return event.payload.value.taskId;
  }
  throw new Error('the stream ended before the first artifact');
}

async function endedTask(agent: string, text: string): Promise<string> {
  const client = await sdkClient(service.url, agent, 'JSONRPC');
  return asTask(await client.sendMessage(userMessage(text))).id;
}

async function openTask(taskId: string, state: string): Promise<void> {
  await page.goto(`${service.url}/console/tasks/${taskId}`);
  await page.locator(`#task-facts .state-${state}`).waitFor();
}

interface ShownEntry {
  title: string;
  at: string | null;
  text: string;
}

function timelineEntries(): Promise<ShownEntry[]> {
  return page.evaluate<ShownEntry[]>(`[...document.querySelectorAll('#timeline > li')].map((li) => ({
    title: li.querySelector('.event-title strong').textContent,
    at: li.querySelector('.event-title time')?.getAttribute('datetime') ?? null,
    text: li.querySelector('.event-text')?.textContent ?? '',
  }))`);
}

describe("a task's page", () => {
  it('dates every timeline entry and lists them in the order they happened, every status included', async () => {
    const client = await sdkClient(service.url, 'long', 'JSONRPC');
    const taskId = await runningTask(client);
    await client.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }));
    await eventually(
      () => client.getTask({ id: taskId, tenant: '' }),
      (task) => task.status?.state === TaskState.TASK_STATE_CANCELED,
    );

    // Opened after the task ended: what it went through comes from the service, not from what the page saw live.
    await openTask(taskId, 'canceled');
    const entries = await timelineEntries();
    expect(entries.map((entry) => entry.title)).toEqual([
      'Message from the caller',
      'Status: submitted',
      'Status: working',
      'Artifact echo',
      'Status: canceled',
    ]);
    expect(entries.at(-1)!.text).toBe('Task canceled.');
    for (const entry of entries) expect(entry.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const times = entries.map((entry) => Date.parse(entry.at!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    await screenshotBothWidths(page, 'task-timeline');
  });

  it('colours each state by what it means, in the facts and on the timeline', async () => {
    const expected: [agent: string, state: string, colour: string][] = [
      ['broken', 'failed', RED],
      ['echo', 'completed', GREEN],
      ['ask', 'input-required', AMBER],
    ];
    for (const [agent, state, colour] of expected) {
      await openTask(await endedTask(agent, `for the ${state} colour`), state);
      expect([state, await computedStyle(page, '#task-facts .state', 'color')]).toEqual([state, colour]);
      const marker = await computedStyle(
        page,
        '#timeline > li.event-status:last-child',
        'background-color',
        '::before',
      );
      expect([state, marker]).toEqual([state, colour]);
    }

    const client = await sdkClient(service.url, 'long', 'JSONRPC');
    const started = asTask(
      await client.sendMessage({
        ...userMessage('twenty characters or more'),
        configuration: SendMessageConfiguration.fromJSON({ returnImmediately: true }),
      }),
    );
    await openTask(started.id, 'working');
    expect(await computedStyle(page, '#task-facts .state', 'color')).toBe(BLUE);
    await client.cancelTask(CancelTaskRequest.fromJSON({ id: started.id }));
    await page.locator('#task-facts .state-canceled').waitFor();
    expect(await computedStyle(page, '#task-facts .state', 'color')).toBe(GREY);
    await page.locator('#timeline > li.event-status:last-child', { hasText: 'canceled' }).waitFor();
    expect(await computedStyle(page, '#timeline > li.event-status:last-child', 'background-color', '::before')).toBe(
      GREY,
    );
  });

  it('offers Cancel only while the task runs, and cancels only once confirmed', async () => {
    await openTask(await endedTask('echo', 'already done'), 'completed');
    expect(await page.locator('#cancel-task').isHidden()).toBe(true);

    const client = await sdkClient(service.url, 'long', 'JSONRPC');
    const taskId = await runningTask(client);
    await openTask(taskId, 'working');
    const cancels: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/cancel')) cancels.push(request.url());
    });

    // Asked, and kept running: nothing is sent.
    await page.click('#cancel-task');
    const dialog = page.locator('dialog#confirm-cancel[open]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(taskId);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.click('#cancel-task');
    await dialog.locator('button', { hasText: 'Keep it running' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(cancels).toEqual([]);
    expect((await client.getTask({ id: taskId, tenant: '' })).status?.state).toBe(TaskState.TASK_STATE_WORKING);

    // Confirmed: canceled, and the control goes away.
    await page.click('#cancel-task');
    await screenshotBothWidths(page, 'task-confirm-cancel');
    const [cancel] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith(`/api/admin/tasks/${taskId}/cancel`)),
      dialog.locator('button', { hasText: 'Cancel the task' }).click(),
    ]);
    expect(cancel.ok()).toBe(true);
    await page.locator('#task-facts .state-canceled').waitFor();
    await page.locator('#cancel-task').waitFor({ state: 'hidden' });
    expect(cancels).toHaveLength(1);
  });

  it('draws Log out as a quiet control, not as the primary action', async () => {
    await page.goto(`${service.url}/console/tasks`);
    const primary = await computedStyle(page, 'form.filters button[type="submit"]', 'background-color');
    const logout = await computedStyle(page, 'form.logout button', 'background-color');
    expect(primary).toBe(BLUE);
    expect(logout).not.toBe(primary);
    expect(await computedStyle(page, 'form.logout button', 'color')).not.toBe('rgb(255, 255, 255)');
  });
});
