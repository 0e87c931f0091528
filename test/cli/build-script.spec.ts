/** `scripts/build.js --if-stale`, which every verb that runs dist/ calls first: build once, and again only after a change. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const { needsBuild } = require('../../scripts/build.js') as { needsBuild: (root: string) => boolean };

const BUILT_AT = new Date('2026-11-20T10:00:00Z');
const BEFORE = new Date('2026-11-20T09:00:00Z');
const AFTER = new Date('2026-11-20T11:00:00Z');

/** A checkout whose every file and directory dates from before its last build, at BUILT_AT. */
function builtCheckout(): string {
  const root = mkdtempSync(join(tmpdir(), 'switchboard-build-'));
  for (const dir of ['src/cli', 'src/generated', 'dist']) mkdirSync(join(root, dir), { recursive: true });
  for (const file of [
    'src/cli/main.ts',
    'src/cli/main.spec.ts',
    'src/generated/client.ts',
    'tsconfig.json',
    'nest-cli.json',
    'dist/.build-started',
  ])
    writeFileSync(join(root, file), '');
  for (const path of [
    'src/cli/main.ts',
    'src/cli/main.spec.ts',
    'src/generated/client.ts',
    'src/cli',
    'src/generated',
    'src',
    'tsconfig.json',
    'nest-cli.json',
  ])
    utimesSync(join(root, path), BEFORE, BEFORE);
  utimesSync(join(root, 'dist/.build-started'), BUILT_AT, BUILT_AT);
  return root;
}

describe('scripts/build.js --if-stale', () => {
  it('builds a checkout never built here, and not one built after its last change', () => {
    const root = builtCheckout();
    expect(needsBuild(root)).toBe(false);
    rmSync(join(root, 'dist'), { recursive: true });
    expect(needsBuild(root)).toBe(true);
  });

  it.each([
    ['a changed source', 'src/cli/main.ts'],
    ['a regenerated Prisma client', 'src/generated/client.ts'],
    ['changed compiler settings', 'tsconfig.json'],
    ['a source added or removed', 'src/cli'],
  ])('builds again after %s', (_, path) => {
    const root = builtCheckout();
    utimesSync(join(root, path), AFTER, AFTER);
    expect(needsBuild(root)).toBe(true);
  });

  it('does not build for a changed unit test, which is not compiled into dist/', () => {
    const root = builtCheckout();
    utimesSync(join(root, 'src/cli/main.spec.ts'), AFTER, AFTER);
    expect(needsBuild(root)).toBe(false);
  });

  it('never builds where there are no sources (an installed package, the image)', () => {
    const root = builtCheckout();
    rmSync(join(root, 'src'), { recursive: true });
    rmSync(join(root, 'dist/.build-started'));
    expect(needsBuild(root)).toBe(false);
  });

  it('is what npm ci (prepare) and every verb that runs dist/ call, so install then test builds once', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.prepare).toBe('prisma generate && node scripts/build.js --if-stale');
    for (const verb of ['pretest', 'prestart', 'premigrate', 'preworker'])
      expect(scripts[verb]).toBe('node scripts/build.js --if-stale');
    expect(scripts.build).toBe('node scripts/build.js');
  });
});
