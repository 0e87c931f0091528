import type { Catalog } from '../config/live-catalog';
import { redactSecrets } from './catalog-secrets';
import type { CatalogKind, StoredEntry } from './catalog-store.interface';

/** An entry as the admin API answers it: its TOML keys (secrets redacted, never a key), where it comes from, its version. */
export interface CatalogEntryView {
  kind: CatalogKind;
  name: string;
  source: 'file' | 'api';
  /** `If-Match` takes it; a file entry's is always 1. */
  version: number;
  created_at?: string;
  updated_at?: string;
  entry: Record<string, unknown>;
}

/** An admin API entry's body as shown (and audited): secrets redacted, a key's digest left out. */
export function shownBody(kind: CatalogKind, body: Record<string, unknown>): Record<string, unknown> {
  const shown = redactSecrets(kind, body);
  if (kind !== 'keys') return shown;
  const { digest: _digest, ...withoutDigest } = shown;
  return withoutDigest;
}

export function apiEntryView(entry: StoredEntry): CatalogEntryView {
  return {
    kind: entry.kind,
    name: entry.name,
    source: 'api',
    version: entry.version,
    created_at: entry.createdAt.toISOString(),
    updated_at: entry.updatedAt.toISOString(),
    entry: shownBody(entry.kind, entry.body),
  };
}

/** The file's entries of `kind` as shown: what the loader resolved, without what it added (environments, certificates). */
export function fileEntryViews(file: Catalog, kind: CatalogKind): CatalogEntryView[] {
  return (file[kind] as readonly { name: string }[]).map((item) => ({
    kind,
    name: item.name,
    source: 'file',
    version: 1,
    entry: shownBody(kind, fileEntryBody(kind, item)),
  }));
}

function fileEntryBody(kind: CatalogKind, item: object): Record<string, unknown> {
  if (kind === 'keys') {
    const { name, grant, expires_at } = item as Catalog['keys'][number];
    return { name, ...(expires_at && { expires_at: expires_at.toISOString() }), ...grant };
  }
  const {
    env_values: _env,
    client_certificate: _certificate,
    ...body
  } = item as Record<string, unknown> & { env_values?: unknown; client_certificate?: unknown };
  return body;
}

/** `kind`'s entries, the file's first: an API entry the file hides is left out. */
export function entryViews(file: Catalog, stored: readonly StoredEntry[], kind: CatalogKind): CatalogEntryView[] {
  const fromFile = fileEntryViews(file, kind);
  const taken = new Set(fromFile.map(({ name }) => name));
  return [...fromFile, ...stored.filter((entry) => entry.kind === kind && !taken.has(entry.name)).map(apiEntryView)];
}
