#!/usr/bin/env node
/**
 * `npm run build`: compiles src/ into dist/ (`nest build`), then records when that build started.
 * With `--if-stale` (prepare, pretest, prestart, premigrate, preworker) it builds only when dist/
 * was never built here or a source changed since: `npm ci && npm test` builds once, and `npm start`
 * after a `git pull` runs what was pulled.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { closeSync, existsSync, openSync, readdirSync, statSync, utimesSync } = require('node:fs');
const { join } = require('node:path');

/** Written at the end of a build with the time the build started: a source changed after that start is newer. */
const STAMP = join('dist', '.build-started');
/** What dist/ is compiled from: the sources (the generated Prisma client among them) and the compiler's settings. */
const INPUTS = ['src', 'tsconfig.json', 'nest-cli.json'];

/** The newest change under `path`. A directory's own time counts: it changes when an entry is added, removed or renamed. */
function newestChange(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith('.spec.ts') ? 0 : stat.mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestChange(join(path, entry))), stat.mtimeMs);
}

/** Whether the checkout at `root` needs a build. One without sources (an installed package, an image) never does. */
function needsBuild(root) {
  if (!existsSync(join(root, 'src'))) return false;
  const stamp = join(root, STAMP);
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return INPUTS.some((input) => existsSync(join(root, input)) && newestChange(join(root, input)) > built);
}

function build(root) {
  const started = new Date();
  const nest = require.resolve('@nestjs/cli/bin/nest.js', { paths: [root] });
  const { status } = spawnSync(process.execPath, [nest, 'build'], { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
  closeSync(openSync(join(root, STAMP), 'w'));
  utimesSync(join(root, STAMP), started, started);
}

if (require.main === module) {
  const root = join(__dirname, '..');
  if (process.argv.includes('--if-stale') && !needsBuild(root)) {
    process.stderr.write('dist/ is up to date with src/: no build needed\n');
  } else {
    build(root);
  }
}

module.exports = { needsBuild };
