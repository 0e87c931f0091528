import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SWITCHBOARD_VERSION } from './version';

describe('SWITCHBOARD_VERSION', () => {
  it('is the version package.json releases', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(SWITCHBOARD_VERSION).toBe(pkg.version);
  });
});
