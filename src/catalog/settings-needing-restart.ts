import { isDeepStrictEqual } from 'node:util';
import type { SwitchboardConfig } from '../config/config.schema';

/** The catalog's parts of the config: a reload applies them; every other setting changes at restart. */
const CATALOG_PATHS = ['mcp_servers', 'agents', 'a2a.external_agents', 'auth.api_keys', 'auth.rules'];

/** The settings (`server.port`, `a2a.push`) whose values differ between two loads of the config, outside the catalog. */
export function settingsNeedingRestart(before: SwitchboardConfig, after: SwitchboardConfig): string[] {
  const changed: string[] = [];
  const visit = (a: unknown, b: unknown, path: string) => {
    if (CATALOG_PATHS.includes(path)) return;
    if (isPlainObject(a) && isPlainObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        visit(a[key], b[key], path ? `${path}.${key}` : key);
    } else if (!isDeepStrictEqual(a, b)) changed.push(path);
  };
  visit(before, after, '');
  return changed;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
