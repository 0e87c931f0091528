import { Inject, Injectable } from '@nestjs/common';
import { AUDIT_STORE, AuditPage, AuditQuery, AuditStore, NewAuditEntry } from './audit-store.interface';

/**
 * Who did what, for operators. Recording is part of what it records: a failure fails the login or
 * the cancel rather than leaving it untold.
 */
@Injectable()
export class AuditTrail {
  constructor(@Inject(AUDIT_STORE) private readonly store: AuditStore) {}

  record(entry: Omit<NewAuditEntry, 'at'>): Promise<void> {
    return this.store.append({ ...entry, at: new Date() });
  }

  list(query: AuditQuery): Promise<AuditPage> {
    return this.store.list(query);
  }
}
