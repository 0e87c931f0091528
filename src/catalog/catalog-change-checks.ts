import { CatalogConflictError, CatalogEntryNotFoundError, CatalogVersionMismatchError } from './catalog.errors';
import type { CatalogChange, StoredEntry } from './catalog-store.interface';

/**
 * Refuses `change` against the entry it would touch, as both stores do inside their transaction:
 * a name taken, a missing entry, a stale `ifVersion`, a full kind (`count` entries of it now).
 */
export function checkChange(change: CatalogChange, before: StoredEntry | undefined, count: () => number): void {
  const { kind, name } = change;
  if (change.op === 'create') {
    if (before) throw new CatalogConflictError(`${kind} entry "${name}" exists already: change it with PUT`);
    if (count() >= change.maxEntries)
      throw new CatalogConflictError(
        `the catalog holds ${change.maxEntries} ${kind} entries, the most catalog.max_entries allows`,
      );
    return;
  }
  if (!before) throw new CatalogEntryNotFoundError(kind, name);
  if (change.ifVersion !== undefined && change.ifVersion !== before.version)
    throw new CatalogVersionMismatchError(kind, name, before.version);
}

/** The entry `change` leaves, made at `now` from the one before (undefined for a delete). */
export function changedEntry(
  change: CatalogChange,
  before: StoredEntry | undefined,
  now: Date,
): StoredEntry | undefined {
  const { kind, name } = change;
  if (change.op === 'create') return { kind, name, body: change.body, version: 1, createdAt: now, updatedAt: now };
  if (change.op === 'update')
    return { ...before!, body: change.body(before!), version: before!.version + 1, updatedAt: now };
  return undefined;
}
