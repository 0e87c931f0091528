import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Writes `toml` to a config file of its own; pass the result as the SWITCHBOARD_CONFIG variable. */
export function writeConfigFile(toml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'switchboard-config-')), 'switchboard.toml');
  writeFileSync(file, toml);
  return file;
}
