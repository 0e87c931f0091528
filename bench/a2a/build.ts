/**
 * What the servers run: Switchboard from `dist/` (rebuilt when a source file is newer), and the
 * reference server compiled to plain JavaScript, so that neither carries ts-node (about 60 MB of
 * resident memory) into the RSS comparison.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';
import { registerCleanup } from './processes';

export const ROOT = resolve(__dirname, '../..');
export const SWITCHBOARD_BIN = join(ROOT, 'bin/switchboard.js');
const MAIN_JS = join(ROOT, 'dist/cli/main.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Runs `npm run build` when dist/ is missing or older than src/; resolves whether it built. The build
 * runs in its own process group and a Ctrl-C waits for it: `nest build` empties dist/ first, so an
 * interrupted build would leave no runnable Switchboard behind.
 */
export async function ensureSwitchboardBuilt(): Promise<boolean> {
  if (existsSync(MAIN_JS) && statSync(MAIN_JS).mtimeMs >= newestMtime(join(ROOT, 'src'))) return false;
  const build = spawn('npm', ['run', 'build'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  build.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  build.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = new Promise<number | null>((resolve) => {
    build.once('exit', resolve);
    build.once('error', (error) => {
      output += error.message;
      resolve(null);
    });
  });
  const finished = registerCleanup(async () => void (await code));
  const exitCode = await code;
  await finished();
  if (exitCode !== 0) throw new Error(`npm run build failed:\n${output}`);
  return true;
}

/** Whether the built Switchboard contains the A2A server (it answers POST /a2a). */
export function hasA2aServer(): boolean {
  return existsSync(join(ROOT, 'dist/a2a-server'));
}

/**
 * Compiles a bench server (`entry`, relative to the repository: the A2A reference server, the MCP
 * SDK proxy) and the sources it imports into `outDir`, mirroring the repository layout; returns the
 * compiled entry. Run it with NODE_PATH=<root>/node_modules.
 */
export function compileBenchServer(entry: string, outDir: string): string {
  const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
  const program = ts.createProgram([join(ROOT, entry)], {
    ...options,
    rootDir: ROOT,
    outDir,
    noCheck: true,
    sourceMap: false,
    declaration: false,
    noEmitOnError: false,
  });
  const { emitSkipped, diagnostics } = program.emit();
  if (emitSkipped)
    throw new Error(
      `could not compile ${entry}:\n${ts.formatDiagnostics(diagnostics, ts.createCompilerHost(options))}`,
    );
  return join(outDir, entry.replace(/\.ts$/, '.js'));
}
