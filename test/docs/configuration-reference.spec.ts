/**
 * docs/configuration.md promises every configuration key: each key the schema accepts must appear
 * there, set (`key = ...`) in the reference block or in one of its comments. A key added to the
 * schema without a line in the reference fails here, naming it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { configSchema } from '../../src/config/config.schema';
import { codeBlocks, ROOT } from './markdown-blocks';

/** Every key path of a JSON Schema (`a2a.client.poll_interval_ms`), list items and union members included. */
function keyPaths(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [];
  const schema = node as {
    properties?: Record<string, unknown>;
    items?: unknown;
    anyOf?: unknown[];
    oneOf?: unknown[];
    allOf?: unknown[];
  };
  const own = Object.entries(schema.properties ?? {}).flatMap(([key, value]) => [
    `${prefix}${key}`,
    ...keyPaths(value, `${prefix}${key}.`),
  ]);
  const nested = [schema.items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap(
    (child) => keyPaths(child, prefix),
  );
  return [...new Set([...own, ...nested])];
}

describe('docs/configuration.md', () => {
  const reference = codeBlocks(
    readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8'),
    'toml',
    'docs/configuration.md',
  )
    .map(({ code }) => code)
    .join('\n');
  const keys = keyPaths(z.toJSONSchema(configSchema, { unrepresentable: 'any', io: 'input' }));

  it('shows every key of the configuration schema', () => {
    expect(keys.length).toBeGreaterThan(100);
    const section = (key: string) => key.split('.').slice(0, -1).join('.');
    const leaf = (key: string) => key.split('.').at(-1)!;
    // A section is shown as a table header ([server], [[agents]], [agents.executor]); a key as `key =`.
    const shown = (key: string) =>
      new RegExp(`^\\s*#?\\s*\\[\\[?${key.replace(/\./g, '\\.')}\\]\\]?`, 'm').test(reference) ||
      new RegExp(`(^|[\\s{,#])${leaf(key)}\\s*=`, 'm').test(reference);
    expect(keys.filter((key) => !shown(key)).map((key) => `${key} (in ${section(key) || 'the top level'})`)).toEqual(
      [],
    );
  });
});
