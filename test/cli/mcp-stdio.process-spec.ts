import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sdkClient } from '../support/sdk-client';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { cancelOnFirstChunk, expectCanceled, textOf } from '../mcp-server/support/mcp-clients';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import { startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';

const BIN = resolve(__dirname, '../../bin/switchboard.js');
const ENV = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn' };

/** The official 1.x client over `node bin/switchboard.js mcp`, started from an unrelated directory. */
async function connect(
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: emptyDir(),
    env: { ...ENV, ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The v2 client negotiating the era (`auto`) over `node bin/switchboard.js mcp`: 2026-07-28 when the server offers it. */
async function connectV2(env: Record<string, string> = {}, args: string[] = []): Promise<ClientV2> {
  const transport = new StdioTransportV2({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd: emptyDir(),
    env: { ...ENV, ...env },
    stderr: 'ignore',
  });
  const client = new ClientV2({ name: 'stdio-test-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  return client;
}

/** Negotiates 2026-07-28 (a fallback to 2025 would pass the rest), lists the tools and calls the echo agent. */
async function expectModernEra(env: Record<string, string>, args: string[] = []): Promise<void> {
  const client = await connectV2(env, args);
  try {
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('switchboard_agent_echo');
    const result = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'hello from 2026' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('hello from 2026');
  } finally {
    await client.close();
  }
}

function emptyDir(): string {
  return mkdtempSync(join(tmpdir(), 'switchboard-mcp-'));
}

/** A raw child: write bytes, read what comes back on stdout. */
function raw(): { child: ChildProcess; stdout: () => string; waitFor: (pattern: RegExp) => Promise<string> } {
  const child = spawn(process.execPath, [BIN, 'mcp'], { cwd: emptyDir(), env: ENV });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.resume();
  /** Resolves with the first match of `pattern` in stdout, checked again on every chunk the child writes. */
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((found, failed) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (!match) return;
        stop();
        found(match[0]);
      };
      const timer = setTimeout(
        () => (stop(), failed(new Error(`no ${pattern} in stdout:\n${stdout.slice(0, 2000)}`))),
        15_000,
      );
      const stop = () => {
        clearTimeout(timer);
        child.stdout!.off('data', check);
      };
      child.stdout!.on('data', check);
      check();
    });
  return { child, stdout: () => stdout, waitFor };
}

const line = (message: object) => `${JSON.stringify(message)}\n`;

type Message = { id?: unknown; method?: string; result?: unknown; error?: unknown; params?: { message?: string } };

/** A script's use: every message written at once, stdin closed, stdout read until the process exits. */
function pipeAll(
  env: Record<string, string>,
  messages: object[],
  args: string[] = [],
): Promise<{ code: number | null; stderr: string; messages: Message[] }> {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { cwd: emptyDir(), env: { ...ENV, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin!.end(messages.map(line).join(''));
  return new Promise((done) =>
    child.once('close', (code) =>
      done({
        code,
        stderr,
        messages: stdout
          .split('\n')
          .filter(Boolean)
          .map((text) => JSON.parse(text) as Message),
      }),
    ),
  );
}

/** What a script pipes in: the handshake, two agent calls (one slow, reporting progress) and a ping. */
function scriptedSession(slowAgent: string): object[] {
  return [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'script', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'switchboard_agent_echo', arguments: { message: 'piped' } },
    },
    {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: `switchboard_agent_${slowAgent}`,
        arguments: { message: '0123456789' },
        _meta: { progressToken: 'slow' },
      },
    },
    { jsonrpc: '2.0', id: 4, method: 'ping' },
  ];
}

function expectEveryAnswer(messages: Message[]): void {
  const answered = messages.filter((message) => message.id !== undefined && message.method === undefined);
  expect(answered.map((message) => message.id).sort()).toEqual([1, 2, 3, 4]);
  expect(answered.filter((message) => message.error !== undefined)).toEqual([]);
}

describe('switchboard mcp (stdio)', () => {
  describe('embedded (no Switchboard running)', () => {
    let client: Client;
    let stderr: () => string;

    beforeAll(async () => {
      ({ client, stderr } = await connect({ SWITCHBOARD_URL: 'http://127.0.0.1:9' }, ['--embedded-fallback']));
    });
    afterAll(() => client?.close());

    it('with --embedded-fallback, says on stderr that it runs embedded, and lists the agents as tools', async () => {
      // Logs are written asynchronously: the warning may come just after the handshake.
      await eventually(
        async () => stderr(),
        (text) => text.includes('running EMBEDDED'),
        5_000,
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('switchboard_agent_echo');
    });

    it('runs an agent turn for switchboard_agent_echo', async () => {
      const result = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'hello stdio' } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain('hello stdio');
      expect(result.structuredContent).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    });

    it('answers an unknown tool with -32602', async () => {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    });

    it('serves a 2026-07-28 client (SDK v2, auto negotiation)', async () => {
      await expectModernEra({ SWITCHBOARD_URL: 'http://127.0.0.1:9' }, ['--embedded-fallback']);
    });

    it('without --embedded-fallback, refuses a SWITCHBOARD_URL that does not answer: a message on stderr, a non-zero exit', async () => {
      const url = `http://127.0.0.1:${await freePort()}`;
      const { code, stderr, messages } = await pipeAll({ SWITCHBOARD_URL: url }, []);
      expect(code).toBe(69);
      expect(stderr).toContain(`no Switchboard answers at SWITCHBOARD_URL=${url} (GET ${url}/healthz: ECONNREFUSED)`);
      expect(stderr).toContain('pass --embedded-fallback');
      expect(messages).toEqual([]);
    });

    it('answers everything a script piped in before stdin closed', async () => {
      const { code, messages } = await pipeAll(
        { SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML) },
        scriptedSession('slow'),
      );
      expect(code).toBe(0);
      expectEveryAnswer(messages);
    });
  });

  describe('raw input', () => {
    let proc: ReturnType<typeof raw>;
    beforeAll(() => {
      proc = raw();
    });
    afterAll(() => proc.child.kill());

    it('answers malformed JSON with -32700, an unknown method with -32601, and Content-Length framed input in kind', async () => {
      proc.child.stdin!.write('{"jsonrpc":"2.0", nope\n');
      await proc.waitFor(/"id":null,"error":\{"code":-32700/);
      proc.child.stdin!.write(
        line({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        }),
      );
      await proc.waitFor(/"id":1\}/);
      proc.child.stdin!.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      proc.child.stdin!.write(line({ jsonrpc: '2.0', id: 2, method: 'no/such/method' }));
      await proc.waitFor(/\{"jsonrpc":"2\.0","id":2,"error":\{"code":-32601/);
      const body = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      proc.child.stdin!.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      const framed = await proc.waitFor(/Content-Length: (\d+)\r\n\r\n\{"result":\{"tools":[^\n]*?"id":3\}/);
      expect(framed).toContain('switchboard_agent_echo');
      const length = Number(/Content-Length: (\d+)/.exec(framed)![1]);
      expect(length).toBe(Buffer.byteLength(framed.slice(framed.indexOf('{'))));
    });

    it('drains an 11 MB line, answers it with an error, and keeps serving', async () => {
      const huge = Buffer.alloc(11 * 1024 * 1024, 'x');
      proc.child.stdin!.write('{"jsonrpc":"2.0","id":4,"method":"ping","params":{"pad":"');
      proc.child.stdin!.write(huge);
      proc.child.stdin!.write('"}}\n');
      await proc.waitFor(/"id":null,"error":\{"code":-32600,"message":"Message too large/);
      proc.child.stdin!.write(line({ jsonrpc: '2.0', id: 5, method: 'ping' }));
      await proc.waitFor(/\{"result":\{\},"jsonrpc":"2\.0","id":5\}|\{"jsonrpc":"2\.0","id":5,"result":\{\}\}/);
      expect(proc.stdout()).not.toContain('"id":4');
      expect(proc.child.exitCode).toBeNull();
    });
  });

  describe('proxy (a Switchboard answers at SWITCHBOARD_URL)', () => {
    let app: NestFastifyApplication;
    let url: string;
    let client: Client;
    let stderr: () => string;

    const relayEnv = () => ({ SWITCHBOARD_URL: url, SWITCHBOARD_API_KEY: TEST_API_KEY });

    beforeAll(async () => {
      ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML) })));
      ({ client, stderr } = await connect({ ...relayEnv(), LOG_LEVEL: 'info' }));
    });
    afterAll(async () => {
      await client?.close();
      await app?.close();
    });

    it('runs the tool call on the running service: its task is found there over A2A', async () => {
      await eventually(
        async () => stderr(),
        (text) => text.includes(`relaying MCP over stdio to ${url}/mcp`),
        5_000,
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('switchboard_agent_echo');
      const result = await client.callTool({ name: 'switchboard_agent_echo', arguments: { message: 'via proxy' } });
      expect(JSON.stringify(result.content)).toContain('via proxy');
      const { taskId } = result.structuredContent as { taskId: string };
      const a2a = await sdkClient(url, 'echo', 'JSONRPC');
      expect((await a2a.getTask({ id: taskId, tenant: '' })).id).toBe(taskId);
    });

    it('logs JSON lines on stderr, like the server', async () => {
      await eventually(
        async () => stderr(),
        (text) => text.includes('relaying MCP over stdio'),
        5_000,
      );
      const lines = stderr().split('\n').filter(Boolean);
      expect(lines.map((text) => JSON.parse(text) as { service?: string })).toContainEqual(
        expect.objectContaining({ service: 'switchboard', msg: `relaying MCP over stdio to ${url}/mcp` }),
      );
    });

    it.each([
      [
        'a wrong key',
        { SWITCHBOARD_API_KEY: 'not-a-key-of-this-switchboard' },
        /refuses SWITCHBOARD_API_KEY \(HTTP 401\)/,
      ],
      ['no key', {}, /requires an API key \(HTTP 401\); set SWITCHBOARD_API_KEY/],
    ])(
      'refuses to start with %s: exit 77 and one line naming SWITCHBOARD_API_KEY, before answering anything',
      async (_case, key, reason) => {
        const {
          code,
          stderr: said,
          messages,
        } = await pipeAll({ SWITCHBOARD_URL: url, ...key }, scriptedSession('slow'));
        expect(code).toBe(77);
        expect(messages).toEqual([]);
        expect(said.trim().split('\n')).toEqual([expect.stringMatching(reason)]);
      },
    );

    it('relays protocol errors of the service', async () => {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    });

    it('relays a 2026-07-28 client (SDK v2, auto negotiation)', async () => {
      await expectModernEra(relayEnv());
    });

    it("cancels the service's task when a 2025-era client cancels the call", async () => {
      const cancel = cancelOnFirstChunk();
      await expect(
        client.callTool({ name: 'switchboard_agent_slow', arguments: { message: '0123456789' } }, undefined, cancel),
      ).rejects.toThrow();
      await expectCanceled(url, cancel.taskId());
    });

    it('answers everything a script piped in before stdin closed, with every progress notification', async () => {
      const { code, messages } = await pipeAll(relayEnv(), scriptedSession('slow'));
      expect(code).toBe(0);
      expectEveryAnswer(messages);
      const progress = messages
        .filter((message) => message.method === 'notifications/progress')
        .map((message) => message.params?.message);
      expect(progress).toEqual(expect.arrayContaining(['01', '23', '45', '67', '89']));
      const answerOfSlow = messages.findIndex((message) => message.id === 3 && message.method === undefined);
      expect(messages.findIndex((message) => message.params?.message === '89')).toBeLessThan(answerOfSlow);
    });

    it("cancels the service's task when a 2026-07-28 client cancels the call", async () => {
      const modern = await connectV2(relayEnv());
      try {
        const cancel = cancelOnFirstChunk();
        await expect(
          modern.callTool({ name: 'switchboard_agent_slow', arguments: { message: '0123456789' } }, cancel),
        ).rejects.toThrow();
        await expectCanceled(url, cancel.taskId());
      } finally {
        await modern.close();
      }
    });
  });
});
