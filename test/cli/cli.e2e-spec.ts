import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const BIN = resolve(__dirname, '../../bin/switchboard.js');

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

/** Runs the real `switchboard` command in an empty directory with a minimal environment. */
function run(args: string[], env: Record<string, string> = {}): Run {
  const cwd = mkdtempSync(join(tmpdir(), 'switchboard-cli-'));
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH ?? '', PORT: '0', ...env } });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, exit };
}

async function listeningUrl(process: Run): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const match = /"url":"(http:\/\/[^"]+)"[^\n]*switchboard listening/.exec(process.output());
    if (match) return match[1];
    if (process.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`switchboard did not start:\n${process.output()}`);
}

describe('switchboard command', () => {
  it('serves in embedded mode with no configuration, says so loudly, and stops cleanly on SIGTERM', async () => {
    const serve = run(['serve']);
    const url = await listeningUrl(serve);
    expect(serve.output()).toContain('EMBEDDED MODE');
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    serve.child.kill('SIGTERM');
    expect(await serve.exit).toBe(0);
  });

  it('exits non-zero naming the key when the config file is invalid', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-bad-config-'));
    const file = join(dir, 'bad.toml');
    writeFileSync(file, '[rate_limit]\nlimit = "lots"\n');
    const serve = run(['serve'], { SWITCHBOARD_CONFIG: file });
    expect(await serve.exit).toBe(78);
    expect(serve.output()).toMatch(/rate_limit\.limit: .*expected number/);
  });

  it('refuses to listen on a public address without API keys', async () => {
    const serve = run(['serve'], { HOST: '0.0.0.0' });
    expect(await serve.exit).toBe(78);
    expect(serve.output()).toMatch(/refusing to listen on 0\.0\.0\.0 without authentication/);
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
