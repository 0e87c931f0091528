import type { AuditEntry, AuditPage, AuditQuery, AuditStore, NewAuditEntry } from './audit-store.interface';

/** The audit trail within one process (embedded mode): lost at restart, as the tasks are. */
export class MemoryAuditStore implements AuditStore {
  /** Oldest first; ids are positions in appending order. */
  private readonly entries: AuditEntry[] = [];
  private lastId = 0;

  async append(entry: NewAuditEntry): Promise<void> {
    this.entries.push(structuredClone({ ...entry, id: String(++this.lastId) }));
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const matching = this.entries
      .filter((entry) => matches(entry, query))
      .reverse()
      .slice(0, query.limit + 1);
    const page = matching.slice(0, query.limit);
    return {
      entries: structuredClone(page),
      ...(matching.length > query.limit && { next: page.at(-1)!.id }),
    };
  }

  async removeBefore(cutoff: Date): Promise<number> {
    const before = this.entries.length;
    const kept = this.entries.filter((entry) => entry.at >= cutoff);
    this.entries.splice(0, this.entries.length, ...kept);
    return before - kept.length;
  }
}

function matches(entry: AuditEntry, query: AuditQuery): boolean {
  return (
    (query.actor === undefined || entry.actor === query.actor) &&
    (query.action === undefined || entry.action === query.action) &&
    (query.target === undefined || entry.target === query.target) &&
    (query.since === undefined || entry.at >= query.since) &&
    (query.beforeId === undefined || Number(entry.id) < Number(query.beforeId))
  );
}
