import { Inject, Injectable } from '@nestjs/common';
import { AUDIT_STORE, type AuditStore } from '../audit/audit-store.interface';
import { changedEntry, checkChange } from './catalog-change-checks';
import type {
  AppliedChange,
  CatalogChange,
  CatalogContents,
  CatalogStore,
  ChangeAudit,
  StoredEntry,
} from './catalog-store.interface';

/** The admin API's entries within one process (embedded mode): lost at restart, as the banner says. */
@Injectable()
export class MemoryCatalogStore implements CatalogStore {
  private readonly entries = new Map<string, StoredEntry>();
  private currentRevision = 0;
  /** Changes run one at a time, as Postgres's row lock makes them there. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(@Inject(AUDIT_STORE) private readonly audit: AuditStore) {}

  async contents(): Promise<CatalogContents> {
    return { revision: this.currentRevision, entries: structuredClone([...this.entries.values()]) };
  }

  async revision(): Promise<number> {
    return this.currentRevision;
  }

  apply(change: CatalogChange, audit: ChangeAudit): Promise<AppliedChange> {
    const applied = this.queue.then(() => this.applyNow(change, audit));
    this.queue = applied.catch(() => undefined);
    return applied;
  }

  private async applyNow(change: CatalogChange, audit: ChangeAudit): Promise<AppliedChange> {
    const key = `${change.kind}/${change.name}`;
    const before = this.entries.get(key);
    checkChange(change, before, () => [...this.entries.values()].filter(({ kind }) => kind === change.kind).length);
    const after = changedEntry(change, before, new Date());
    await this.audit.append(audit(before, after));
    if (after) this.entries.set(key, after);
    else this.entries.delete(key);
    this.currentRevision += 1;
    return { entry: structuredClone((after ?? before)!), revision: this.currentRevision };
  }
}
