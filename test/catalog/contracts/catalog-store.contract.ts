import type { AuditStore } from '../../../src/audit/audit-store.interface';
import {
  CatalogConflictError,
  CatalogEntryNotFoundError,
  CatalogVersionMismatchError,
} from '../../../src/catalog/catalog.errors';
import type { CatalogStore, ChangeAudit } from '../../../src/catalog/catalog-store.interface';

export interface CatalogStoreFixture {
  /** An empty store, and the audit trail its changes are recorded in. */
  fresh(): Promise<{ store: CatalogStore; audit: AuditStore }>;
  close(): Promise<void>;
}

const audited: ChangeAudit = (before, after) => ({
  at: new Date(),
  actor: 'operator',
  action: after ? (before ? 'catalog.update' : 'catalog.create') : 'catalog.delete',
  target: `mcp_server:${(after ?? before)!.name}`,
  detail: { version: (after ?? before)!.version },
});

/** What every CatalogStore must do: versions, conflicts, limits, and a change and its audit entry together or not at all. */
export function describeCatalogStoreContract(name: string, setUp: () => Promise<CatalogStoreFixture>): void {
  describe(`${name} catalog store`, () => {
    let fixture: CatalogStoreFixture;
    let store: CatalogStore;
    let audit: AuditStore;
    const create = (entryName: string, maxEntries = 10) =>
      store.apply(
        { op: 'create', kind: 'mcp_servers', name: entryName, body: { name: entryName }, maxEntries },
        audited,
      );

    beforeAll(async () => {
      fixture = await setUp();
    });
    beforeEach(async () => {
      ({ store, audit } = await fixture.fresh());
    });
    afterAll(() => fixture?.close());

    it('creates at version 1, bumps the version and the revision with each change, and lists what remains', async () => {
      const created = await create('docs');
      expect(created.entry).toMatchObject({ kind: 'mcp_servers', name: 'docs', version: 1, body: { name: 'docs' } });
      const updated = await store.apply(
        { op: 'update', kind: 'mcp_servers', name: 'docs', body: (before) => ({ ...before.body, timeout_secs: 5 }) },
        audited,
      );
      expect(updated.entry).toMatchObject({ version: 2, body: { name: 'docs', timeout_secs: 5 } });
      expect(updated.revision).toBe(created.revision + 1);
      await create('other');
      await store.apply({ op: 'delete', kind: 'mcp_servers', name: 'other' }, audited);
      const contents = await store.contents();
      expect(contents.revision).toBe(created.revision + 3);
      expect(await store.revision()).toBe(contents.revision);
      expect(contents.entries.map(({ name, version }) => `${name}@${version}`)).toEqual(['docs@2']);
      const { entries } = await audit.list({ limit: 10 });
      expect(entries.map(({ action, target }) => `${action} ${target}`)).toEqual([
        'catalog.delete mcp_server:other',
        'catalog.create mcp_server:other',
        'catalog.update mcp_server:docs',
        'catalog.create mcp_server:docs',
      ]);
    });

    it('refuses a taken name, a missing entry, a stale version and a full kind, changing nothing', async () => {
      await create('docs');
      const revision = await store.revision();
      await expect(create('docs')).rejects.toBeInstanceOf(CatalogConflictError);
      await expect(create('third', 1)).rejects.toBeInstanceOf(CatalogConflictError);
      await expect(store.apply({ op: 'delete', kind: 'agents', name: 'docs' }, audited)).rejects.toBeInstanceOf(
        CatalogEntryNotFoundError,
      );
      await expect(
        store.apply({ op: 'update', kind: 'mcp_servers', name: 'docs', ifVersion: 3, body: () => ({}) }, audited),
      ).rejects.toMatchObject(new CatalogVersionMismatchError('mcp_servers', 'docs', 1));
      expect(await store.revision()).toBe(revision);
      expect((await audit.list({ limit: 10 })).entries).toHaveLength(1);
    });

    it('stores no change whose audit entry cannot be stored', async () => {
      await create('docs');
      const revision = await store.revision();
      const failing: ChangeAudit = () => {
        throw new Error('audit entry refused');
      };
      await expect(
        store.apply({ op: 'update', kind: 'mcp_servers', name: 'docs', body: () => ({ name: 'changed' }) }, failing),
      ).rejects.toThrow('audit entry refused');
      expect(await store.revision()).toBe(revision);
      expect((await store.contents()).entries[0]).toMatchObject({ version: 1, body: { name: 'docs' } });
    });

    it('applies concurrent updates one at a time, each with a version of its own', async () => {
      await create('docs');
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          store.apply(
            { op: 'update', kind: 'mcp_servers', name: 'docs', body: (before) => ({ ...before.body, n: index }) },
            audited,
          ),
        ),
      );
      expect(results.map(({ entry }) => entry.version).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 20 }, (_, index) => index + 2),
      );
    });
  });
}
