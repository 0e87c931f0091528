/** The README's TypeScript example runs as the README says: `npx ts-node hello.ts` in the checkout, type-checked against the installed SDK. */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';
import { codeBlocks } from './markdown-blocks';

const ROOT = resolve(__dirname, '../..');
/** The address the example is written for; the test's own server takes its place. */
const README_URL = 'http://localhost:8080';

describe("the README's TypeScript example", () => {
  let app: NestFastifyApplication;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(testConfig()));
    // Inside the checkout (in the ignored .cache/), where the README says to save it: the SDK and ts-node resolve from there.
    mkdirSync(join(ROOT, '.cache'), { recursive: true });
    dir = mkdtempSync(join(ROOT, '.cache', 'readme-example-'));
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compiles without type errors and streams a task to its end', async () => {
    const blocks = codeBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'ts', 'README.md');
    expect(blocks).toHaveLength(1);
    expect(blocks[0].code).toContain(README_URL);
    writeFileSync(join(dir, 'hello.ts'), blocks[0].code.replaceAll(README_URL, url));

    // Type-checked: ts-node compiles with the checkout's tsconfig.json unless told to only transpile.
    const { stdout } = await promisify(execFile)(join(ROOT, 'node_modules/.bin/ts-node'), ['hello.ts'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', KEY: TEST_API_KEY },
    });
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, { status?: { state: string } }>);
    expect(Object.keys(events[0])).toEqual(['task']);
    expect(events.at(-1)?.statusUpdate?.status?.state).toBe('TASK_STATE_COMPLETED');
  }, 90_000);
});
