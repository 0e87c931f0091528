import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SWITCHBOARD_VERSION } from '../../src/common/version';
import { eventually } from '../support/eventually';
import { TEST_API_KEY } from '../support/test-app';
import {
  adminDatabaseUrl,
  createDatabase,
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
  uniqueName,
} from '../support/test-database';

const BIN = resolve(__dirname, '../../bin/switchboard.js');

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  output: () => string;
  exit: Promise<number | null>;
}

const runs: Run[] = [];

// A test that fails midway must not leave a server behind (jest would wait for it).
afterAll(() => {
  for (const { child } of runs) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Runs the real `switchboard` command in an empty directory with a minimal environment. */
function run(args: string[], env: Record<string, string> = {}): Run {
  const cwd = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
  });
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const started = { child, stdout: () => stdout, stderr: () => stderr, output: () => output, exit };
  runs.push(started);
  return started;
}

/** Waits until the process has written `pattern` (returning its first group), or fails with its output if it exits first. */
async function waitForOutput(process: Run, pattern: RegExp): Promise<string> {
  const found = await eventually(
    async () => pattern.exec(process.output()) ?? (process.child.exitCode !== null ? 'exited' : undefined),
    (value) => value !== undefined,
    30_000,
  ).catch(() => undefined);
  if (!found || found === 'exited') throw new Error(`switchboard did not write ${pattern}:\n${process.output()}`);
  return found[1];
}

const listeningUrl = (process: Run) => waitForOutput(process, /"url":"(http:\/\/[^"]+)"[^\n]*switchboard listening/);

async function stop(process: Run): Promise<number | null> {
  process.child.kill('SIGTERM');
  return process.exit;
}

/** Holds a loopback port for as long as a test needs it taken. */
async function takePort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { port: (server.address() as { port: number }).port, server };
}

describe('switchboard command', () => {
  it('serves in embedded mode with no configuration, announces it and open mode in a plain banner on stderr, and stops cleanly on SIGTERM', async () => {
    const serve = run(['serve']);
    const url = await listeningUrl(serve);
    await waitForOutput(serve, /(config {2}.*)\n/);
    expect(serve.stdout()).toContain('EMBEDDED MODE');
    expect(serve.stdout()).toContain('OPEN MODE: no API keys are configured');
    expect(serve.stderr().split('\n').slice(0, 9)).toEqual([
      `Switchboard ${SWITCHBOARD_VERSION} is listening on ${url}`,
      expect.stringMatching(/^ {2}mode {5}EMBEDDED/),
      '  tasks    in memory: lost when this process stops',
      '  turns    run in this process',
      "  catalog  the file's entries; the admin API's in memory: lost when this process stops",
      expect.stringMatching(/^ {2}auth {5}OFF: no API keys, every route answers without Authorization/),
      `  console  ${url}/console`,
      '  traces   off (set OTEL_EXPORTER_OTLP_ENDPOINT to export them)',
      expect.stringMatching(/^ {2}config {3}no file/),
    ]);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // As the banner says: a route that needs a key once keys are configured answers without one.
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    expect(await stop(serve)).toBe(0);
  });

  it('prints no banner when the log is pretty: its lines are for people already', async () => {
    const serve = run(['serve'], { SWITCHBOARD_LOG_PRETTY: 'true' });
    await waitForOutput(serve, /(switchboard listening)/);
    expect(await stop(serve)).toBe(0);
    expect(serve.stderr()).not.toContain('is listening on');
  });

  it('exits non-zero naming the key when the config file is invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-bad-config-'));
    const file = join(dir, 'bad.toml');
    writeFileSync(file, '[rate_limit]\nlimit = "lots"\n');
    const serve = run(['serve'], { SWITCHBOARD_CONFIG: file });
    expect(await serve.exit).toBe(78);
    expect(serve.output()).toMatch(/rate_limit\.limit: .*expected number/);
  });

  it('exits 78 naming the key and the variable for a DATABASE_URL that is no URL', async () => {
    const serve = run(['serve'], { DATABASE_URL: 'notaurl' });
    expect(await serve.exit).toBe(78);
    expect(serve.stderr()).toMatch(
      /^Invalid configuration \(environment\):\n {2}- database\.url \(from DATABASE_URL\): must be a postgresql:\/\/ or postgres:\/\/ URL/,
    );
    expect(serve.stdout()).toBe('');
  });

  it('check validates the configuration without connecting to the stores: a summary and 0, or 78 naming each bad key', async () => {
    const valid = run(['check'], {
      SWITCHBOARD_API_KEYS: 'ops=0123456789abcdef01',
      DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
    });
    expect(await valid.exit).toBe(0);
    expect(valid.stdout()).toBe(
      'The configuration is valid (no file: defaults and environment): tasks in postgres, 0 agent(s), 0 MCP server(s), 0 external agent(s), 1 API key(s).\n',
    );
    const placeholder = run(['check'], { SWITCHBOARD_API_KEYS: 'admin=replace-with-a-long-random-key' });
    expect(await placeholder.exit).toBe(78);
    expect(placeholder.stderr()).toMatch(
      /auth\.api_keys\[0\]\.key \(from SWITCHBOARD_API_KEYS\): the key is a placeholder/,
    );
    // What serve refuses after loading: the listen policy, and keys that share a name.
    const open = run(['check'], { HOST: '0.0.0.0' });
    expect(await open.exit).toBe(78);
    expect(open.stderr()).toMatch(/server\.host: refusing to listen on 0\.0\.0\.0 without authentication/);
    const twice = run(['check'], { SWITCHBOARD_API_KEYS: 'ops=0123456789abcdef01,ops=fedcba98765432100' });
    expect(await twice.exit).toBe(78);
    expect(twice.stderr()).toMatch(/auth\.api_keys\[1\]: the name "ops" is already used by another key/);
  });

  it('refuses to listen on a public address without API keys', async () => {
    const serve = run(['serve'], { HOST: '0.0.0.0' });
    expect(await serve.exit).toBe(78);
    expect(serve.output()).toMatch(/refusing to listen on 0\.0\.0\.0 without authentication/);
  });

  it('says in one line which port is taken and how to change it, before starting anything', async () => {
    const { port, server } = await takePort();
    try {
      const serve = run(['serve'], { PORT: String(port) });
      expect(await serve.exit).toBe(1);
      expect(serve.stderr()).toBe(
        `Port ${port} on 127.0.0.1 is already in use: stop what is listening there, or choose another with PORT=<port> (server.port in the config file).\n`,
      );
      expect(serve.stdout()).toBe('');
    } finally {
      server.close();
    }
  });

  it("names a worker's taken health port by its own variable", async () => {
    const { port, server } = await takePort();
    try {
      const worker = run(['worker'], {
        REDIS_URL: testRedisUrl(),
        SWITCHBOARD_REDIS_PREFIX: testRedisPrefix(),
        SWITCHBOARD_WORKER_HEALTH_PORT: String(port),
      });
      expect(await worker.exit).toBe(1);
      expect(worker.stderr()).toMatch(
        new RegExp(
          `^Port ${port} on 127\\.0\\.0\\.1 is already in use: .*SWITCHBOARD_WORKER_HEALTH_PORT=<port> \\(queue\\.health_port in the config file\\)\\.\\n$`,
        ),
      );
    } finally {
      server.close();
    }
  });

  it('prints its version', async () => {
    const version = run(['--version']);
    expect(await version.exit).toBe(0);
    expect(version.stdout()).toBe(`switchboard ${SWITCHBOARD_VERSION}\n`);
  });

  it("prints a command's help instead of running it", async () => {
    const { port, server } = await takePort();
    try {
      // Were it to start, serve would fail on the taken port, and the worker on the missing REDIS_URL.
      const serve = run(['serve', '--help'], { PORT: String(port) });
      const worker = run(['worker', '-h']);
      expect([await serve.exit, await worker.exit]).toEqual([0, 0]);
      expect(serve.stdout()).toMatch(/^Usage: switchboard serve\n/);
      expect(worker.stdout()).toMatch(/^Usage: switchboard worker\n/);
      expect(serve.stderr() + worker.stderr()).toBe('');
    } finally {
      server.close();
    }
  });

  it('refuses arguments a command does not take', async () => {
    const serve = run(['serve', '--port', '9000']);
    expect(await serve.exit).toBe(64);
    expect(serve.stderr()).toMatch(/^switchboard serve takes no arguments \(got "--port" "9000"\)/);
  });

  it('exits non-zero naming SWITCHBOARD_URL when `mcp` is given one that is not an http(s) URL', async () => {
    const mcp = run(['mcp'], { SWITCHBOARD_URL: 'localhost:8080' });
    expect(await mcp.exit).toBe(78);
    expect(mcp.output()).toContain('SWITCHBOARD_URL: must be an http(s) URL');
  });

  it('prints usage for an unknown command', async () => {
    const bad = run(['frobnicate']);
    expect(await bad.exit).toBe(64);
    expect(bad.output()).toContain('Usage: switchboard <command>');
  });
});

/** A loopback port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const { port, server } = await takePort();
  await new Promise((closed) => server.close(closed));
  return port;
}

describe('switchboard with a database', () => {
  const databases: TestDatabase[] = [];
  const redisPrefix = testRedisPrefix();
  const durableEnv = (database: TestDatabase) => ({
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    SWITCHBOARD_REDIS_PREFIX: redisPrefix,
  });

  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()));
    await deleteRedisKeys(redisPrefix);
  });

  it('refuses to start serve or worker on an unmigrated database, saying to run switchboard migrate', async () => {
    const empty = await createDatabase(uniqueName('switchboard_unmigrated'));
    databases.push(empty);
    const serve = run(['serve'], durableEnv(empty));
    const worker = run(['worker'], durableEnv(empty));
    expect([await serve.exit, await worker.exit]).toEqual([78, 78]);
    for (const process of [serve, worker]) {
      expect(process.stderr()).toMatch(
        /^Cannot start: the database is not migrated: none of the \d+ migrations is applied \(.*\); run `switchboard migrate` \(npm run migrate\) with the same DATABASE_URL\.\n$/,
      );
      expect(process.stdout()).toBe('');
    }
  });

  it('refuses a database that does not exist, saying to create it', async () => {
    const url = new URL(adminDatabaseUrl());
    url.pathname = `/${uniqueName('switchboard_missing')}`;
    const serve = run(['serve'], { DATABASE_URL: url.toString() });
    expect(await serve.exit).toBe(78);
    expect(serve.stderr()).toMatch(
      /^Cannot use the database at DATABASE_URL \(database\.url\): database "switchboard_missing_\w+" does not exist; create it, then run `switchboard migrate`\.\n$/,
    );
  });

  it('starts with a warning when Postgres does not answer yet, and /readyz reports it', async () => {
    const port = await closedPort();
    const serve = run(['serve'], { DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/switchboard` });
    const url = await listeningUrl(serve);
    const ready = await fetch(`${url}/readyz`);
    expect(await stop(serve)).toBe(0);
    expect(serve.stderr()).toMatch(
      new RegExp(
        `^switchboard: could not check the database schema \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\); starting anyway`,
      ),
    );
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { checks: Record<string, { status: string }> }).checks).toMatchObject({
      postgres: { status: 'down' },
      schema: { status: 'down' },
      catalog_entries: { status: 'down', error: expect.stringContaining("the admin API's entries are not read yet") },
    });
  });

  it('says in one line that `migrate` cannot reach Postgres', async () => {
    const port = await closedPort();
    const migrate = run(['migrate'], { DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/switchboard` });
    expect(await migrate.exit).toBe(1);
    expect(migrate.stderr()).toBe(
      `Cannot migrate the database at DATABASE_URL (database.url): connect ECONNREFUSED 127.0.0.1:${port}.\n`,
    );
  });

  it("shows a durable API with keys in its banner, without the stores' credentials", async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const serve = run(['serve'], { ...durableEnv(database), SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY}` });
    const url = await listeningUrl(serve);
    await waitForOutput(serve, /(config {2}.*)\n/);
    const ready = await fetch(`${url}/readyz`);
    expect(await stop(serve)).toBe(0);
    expect(ready.status).toBe(200);
    const { host, pathname } = new URL(database.url);
    expect(serve.stderr()).toContain(`  tasks    in Postgres at ${host}${pathname}\n`);
    expect(serve.stderr()).toContain(
      `  turns    queued in Redis at ${new URL(testRedisUrl()).host}, run here and by any \`switchboard worker\`\n`,
    );
    expect(serve.stderr()).toContain('  auth     on: 1 API key; requests need Authorization: Bearer <key>\n');
    expect(serve.stdout()).not.toContain('OPEN MODE');
  });
});
