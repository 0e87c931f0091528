export const CATALOG_NOTICES = Symbol('CATALOG_NOTICES');

export interface CatalogNoticeListener {
  /** Some process changed the catalog to `revision`. */
  changed(revision: number): void;
  /** Notices may have been missed (the connection that brings them was lost and is back): read the catalog again. */
  missed(): void;
}

/** How a change made on one process reaches the others: Redis pub/sub, or nothing within one process. */
export interface CatalogNotices {
  announce(revision: number): Promise<void>;
  /** Resolves once notices announced from now on reach `listener`. */
  listen(listener: CatalogNoticeListener): Promise<void>;
}

/** One process (embedded mode): it applies its own changes, and there is no one else to tell. */
export class LocalCatalogNotices implements CatalogNotices {
  async announce(): Promise<void> {}
  async listen(): Promise<void> {}
}
