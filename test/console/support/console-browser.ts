import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it): playwright-core never downloads a browser. */
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const LAPTOP = { width: 1366, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Where the run leaves its screenshots (git-ignored). */
export const SCREENSHOTS = join(__dirname, '../../../test-results/console');

export interface ConsoleBrowser {
  page: Page;
  /** What went wrong in the page, in order: a script's exception, an answer of 400 or more, a request the CSP refused. */
  problems: string[];
  close(): Promise<void>;
}

/** Headless chromium with a profile of its own, one page at laptop width, its errors collected. */
export async function openConsoleBrowser(): Promise<ConsoleBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'switchboard-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    viewport: LAPTOP,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  // Below Jest's 30 s, so that a wait that fails says what it waited for.
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on('console', (message) => {
    // Failed requests are listed by the response above, with their address; this is the rest (a CSP refusal, say).
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`);
  });
  return {
    page,
    problems,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves the page as `<name>-laptop.png` and `<name>-phone.png`, and goes back to laptop width. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const [width, size] of [
    ['laptop', LAPTOP],
    ['phone', PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(LAPTOP);
}

/** Presses Tab until `selector` has the focus, as a keyboard user would reach it; fails if it never does. */
export async function tabTo(page: Page, selector: string, maxPresses = 30): Promise<void> {
  for (let presses = 0; presses < maxPresses; presses++) {
    if (await hasFocus(page, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} was not reached with ${maxPresses} presses of Tab`);
}

/** Whether the focused element matches `selector`. (Expressions, not functions: the tests compile without the DOM's types.) */
export function hasFocus(page: Page, selector: string): Promise<boolean> {
  return page.evaluate<boolean>(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`);
}

/** A fresh browser logged in to the console at `baseUrl` with `key`, through the form, on the overview. */
export async function openLoggedInConsole(baseUrl: string, key: string): Promise<ConsoleBrowser> {
  const browser = await openConsoleBrowser();
  await browser.page.goto(`${baseUrl}/console/login`);
  await browser.page.fill('#api-key', key);
  await Promise.all([
    browser.page.waitForURL(`${baseUrl}/console`),
    browser.page.click('form.login button[type="submit"]'),
  ]);
  return browser;
}

/** A computed style property of the element `selector` matches, or of its `::before`. (An expression: see hasFocus.) */
export function computedStyle(page: Page, selector: string, property: string, pseudo?: '::before'): Promise<string> {
  const element = `document.querySelector(${JSON.stringify(selector)})`;
  return page.evaluate<string>(
    `getComputedStyle(${element}, ${JSON.stringify(pseudo ?? null)}).getPropertyValue(${JSON.stringify(property)})`,
  );
}
