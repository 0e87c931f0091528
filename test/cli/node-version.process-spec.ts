/**
 * On a Node older than package.json's `engines`, `switchboard` refuses to start with one line naming
 * the Node it needs and the one it found, and exits 78, before loading anything that needs a newer
 * Node. Run with an older Node of this machine (Debian's Node 20), when it has one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/switchboard.js');
const { engines } = require('../../package.json') as { engines: { node: string } };

/** The first `node` on PATH (or at /usr/bin/node) older than Node 22, with its version. */
function olderNode(): { path: string; version: string } | undefined {
  const candidates = [...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')), '/usr/bin/node'];
  for (const path of candidates.filter(existsSync)) {
    const version = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    if (Number(version.split('.')[0]) < 22) return { path, version };
  }
  return undefined;
}

const old = olderNode();

describe('switchboard on a Node older than engines', () => {
  (old ? it : it.skip)(
    `refuses to start with one line naming the Node it needs and the one found (${old?.path ?? 'no older Node here'}), exit 78`,
    () => {
      const { path, version } = old!;
      for (const command of ['serve', 'check', '--version']) {
        const run = spawnSync(path, [BIN, command], {
          encoding: 'utf8',
          env: { PATH: process.env.PATH, PORT: '0' },
          timeout: 20_000,
        });
        expect({ command, status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
          command,
          status: 78,
          stdout: '',
          stderr: `Switchboard needs Node.js ${engines.node} (package.json engines); this is Node.js ${version} (${path}). Install a supported Node.js, or put one first in PATH.\n`,
        });
      }
    },
  );
});
