/**
 * Every curl command the README and docs/ show against a local Switchboard (localhost:8080) runs,
 * as written, against a test server: it must answer below HTTP 400 with no JSON-RPC error. A
 * placeholder task id (`<task id>`, `<id>`) takes the id of the task an earlier command of the same
 * block created, as a reader would paste it.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';
import { codeBlocks, documentationFiles } from './markdown-blocks';

const LOCAL = 'localhost:8080';
/** `$ADMIN_KEY` in the examples: a key with operator rights (the admin API's). */
const ADMIN_KEY = 'admin-key-0123456789abcdef';

/** The curl commands of a shell block, continuation lines joined and comments dropped. */
function curlCommands(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line.startsWith('curl ') && line.includes(LOCAL));
}

const blocks = documentationFiles()
  .flatMap(({ path, text }) => codeBlocks(text, 'sh', path))
  .map(({ name, code }) => ({ name, commands: curlCommands(code) }))
  .filter(({ commands }) => commands.length > 0);

/** The JSON documents of an answer: the body itself, or each SSE `data:` line. */
function documents(body: string): unknown[] {
  try {
    return [JSON.parse(body)];
  } catch {
    return body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice('data:'.length)));
  }
}

function taskIdIn(body: string): string | undefined {
  const id = /"(?:taskId|id)":"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/.exec(body);
  return id?.[1];
}

describe('the curl examples of the README and docs/', () => {
  let app: NestFastifyApplication;
  let host: string;

  beforeAll(async () => {
    let url: string;
    ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_ADMIN_KEYS: `admin=${ADMIN_KEY}` })));
    host = new URL(url).host;
  });

  afterAll(async () => {
    await app?.close();
  });

  it("include the README's A2A and MCP calls", () => {
    const readme = blocks.filter(({ name }) => name.startsWith('README.md:')).flatMap(({ commands }) => commands);
    for (const call of [
      '"method":"SendMessage"',
      '"method":"SendStreamingMessage"',
      '"method":"message/send"',
      '/a2a/rest/message:send',
      '/a2a/tasks/send',
      '"method":"tools/call"',
    ]) {
      expect(readme.filter((command) => command.includes(call))).not.toHaveLength(0);
    }
  });

  it.each(blocks.map((block) => [block.name, block] as const))(
    '%s runs',
    async (_name, { commands }) => {
      let taskId: string | undefined;
      for (const command of commands) {
        const withId = command.replace(/<(task id|id)>/g, () => taskId ?? 'no-task-yet');
        const { stdout } = await promisify(execFile)(
          'bash',
          ['-c', `${withId.replaceAll(LOCAL, host)} -w '\\n%{http_code}'`],
          {
            env: { PATH: process.env.PATH ?? '', KEY: TEST_API_KEY, ADMIN_KEY },
            timeout: 20_000,
          },
        );
        const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
        const body = stdout.slice(0, stdout.lastIndexOf('\n'));
        expect({ command, status }).toEqual({ command, status: expect.any(Number) });
        expect({ command, status: status < 400 }).toEqual({ command, status: true });
        const errors = documents(body).filter(
          (document) => typeof document === 'object' && document !== null && 'error' in document,
        );
        expect({ command, errors }).toEqual({ command, errors: [] });
        taskId = taskIdIn(body) ?? taskId;
      }
    },
    60_000,
  );
});
