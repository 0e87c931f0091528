/** The Prisma packages the service and its CLI load come from one major version (issue 25). */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const PACKAGES = ['prisma', '@prisma/client', '@prisma/adapter-pg', '@prisma/driver-adapter-utils'];

function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;
}

describe('Prisma packages', () => {
  it('are installed at one major version', () => {
    const versions = Object.fromEntries(PACKAGES.map((name) => [name, installedVersion(name)]));
    const majors = new Set(Object.values(versions).map((version) => version.split('.')[0]));
    expect({ majors: majors.size, versions }).toEqual({ majors: 1, versions });
  });
});
