import { createHash } from 'node:crypto';
import { apiKeyName } from './api-keys';
import { ruleName } from './auth.schema';
import type { SwitchboardConfig } from './config.schema';
import type { Catalog, CatalogKey, NamedAccessRule } from './live-catalog';

/** SHA-256 of a key, hex: how the catalog holds keys, the file's and the admin API's alike. */
export function keyDigest(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The catalog the loaded file (and environment) describes. */
export function fileCatalog(config: SwitchboardConfig): Catalog {
  return {
    mcp_servers: config.mcp_servers,
    external_agents: config.a2a.external_agents,
    agents: config.agents,
    keys: config.auth.api_keys.map((entry, index): CatalogKey => {
      const name = apiKeyName(entry, index);
      if (typeof entry === 'string') return { name, digest: keyDigest(entry) };
      const { key, name: _name, expires_at, ...grant } = entry;
      return { name, digest: keyDigest(key), grant, ...(expires_at && { expires_at: new Date(expires_at) }) };
    }),
    rules: config.auth.rules.map((rule, index): NamedAccessRule => ({ ...rule, name: ruleName(rule, index) })),
  };
}
