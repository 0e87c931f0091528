import type { SwitchboardConfig } from './config.schema';

type ApiKeyEntry = SwitchboardConfig['auth']['api_keys'][number];

/** The name a key goes by: its own, or `key-<position>` (from 1) for a bare key. */
export function apiKeyName(entry: ApiKeyEntry, index: number): string {
  return typeof entry === 'string' ? `key-${index + 1}` : entry.name;
}

/**
 * What the loader refuses in `auth.api_keys`: two keys with one name would share their tasks; one
 * key under two names has no single owner. The keys themselves are never shown.
 */
export function apiKeyProblems(apiKeys: readonly ApiKeyEntry[]): string[] {
  const secret = (entry: ApiKeyEntry) => (typeof entry === 'string' ? entry : entry.key);
  const problems: string[] = [];
  apiKeys.forEach((entry, index) => {
    const name = apiKeyName(entry, index);
    const earlier = apiKeys.slice(0, index);
    if (earlier.some((other, position) => apiKeyName(other, position) === name)) {
      problems.push(`auth.api_keys[${index}]: the name "${name}" is already used by another key`);
    }
    if (earlier.some((other) => secret(other) === secret(entry))) {
      problems.push(`auth.api_keys[${index}]: the same key is configured twice`);
    }
  });
  return problems;
}
