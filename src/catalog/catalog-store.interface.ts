import type { NewAuditEntry } from '../audit/audit-store.interface';

export const CATALOG_STORE = Symbol('CATALOG_STORE');

/** The catalog's kinds, by their TOML sections' names. */
export type CatalogKind = 'mcp_servers' | 'external_agents' | 'agents' | 'keys' | 'rules';

/** An entry created through the admin API, as stored: its TOML keys as given, secrets sealed. */
export interface StoredEntry {
  kind: CatalogKind;
  name: string;
  body: Record<string, unknown>;
  /** 1 when created; each update adds one. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface CatalogContents {
  /** Bumped by every change: a process holding an older one reloads. */
  revision: number;
  entries: StoredEntry[];
}

/**
 * One change: `create` refuses a name taken; `update` and `delete` refuse a missing entry, or one
 * whose version is not `ifVersion` when that is given.
 */
export type CatalogChange = { kind: CatalogKind; name: string; ifVersion?: number } & (
  | {
      op: 'create';
      body: Record<string, unknown>;
      /** Refused when the kind already holds this many entries. */
      maxEntries: number;
    }
  /** The new body from the stored one (secrets left redacted keep their stored values). */
  | { op: 'update'; body: (before: StoredEntry) => Record<string, unknown> }
  | { op: 'delete' }
);

export interface AppliedChange {
  /** The entry as it now stands; as it stood, for a delete. */
  entry: StoredEntry;
  revision: number;
}

/** What the audit trail records of a change, from the entry before and after it. */
export type ChangeAudit = (before: StoredEntry | undefined, after: StoredEntry | undefined) => NewAuditEntry;

/** The admin API's entries: Postgres, or memory when embedded. A change and its audit entry are stored together or not at all. */
export interface CatalogStore {
  contents(): Promise<CatalogContents>;
  revision(): Promise<number>;
  apply(change: CatalogChange, audit: ChangeAudit): Promise<AppliedChange>;
}
