export const AUDIT_STORE = Symbol('AUDIT_STORE');

/** One thing an operator (or someone trying to be one) did. Never a secret: no key, token or credential value. */
export interface AuditEntry {
  /** Increases with each entry appended: newest first is highest first. */
  id: string;
  at: Date;
  /** The API key's name or the access token's principal; "anonymous" when the caller is unknown. */
  actor: string;
  /** What was done: `console.login`, `console.login_refused`, `task.cancel`. */
  action: string;
  /** What it was done to: `console`, `task:<id>`. */
  target: string;
  detail?: Record<string, unknown>;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** Entries matching every filter given (exact match), newest first. */
export interface AuditQuery {
  actor?: string;
  action?: string;
  target?: string;
  /** Only entries at or after this instant. */
  since?: Date;
  /** Only entries appended before the one with this id (the previous page's last). */
  beforeId?: string;
  limit: number;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** The `beforeId` of the next page; absent on the last. */
  next?: string;
}

/** The audit trail's storage: append-only but for retention. */
export interface AuditStore {
  append(entry: NewAuditEntry): Promise<void>;
  list(query: AuditQuery): Promise<AuditPage>;
  /** Removes the entries from before `cutoff`; answers how many. */
  removeBefore(cutoff: Date): Promise<number>;
}
