import type { AuditEntry, AuditQuery, AuditStore, NewAuditEntry } from '../../../src/audit/audit-store.interface';

export interface AuditStoreFixture {
  /** An empty store (storage cleared), for one test. */
  fresh(): Promise<AuditStore>;
  close(): Promise<void>;
}

const DAY = 24 * 3600 * 1000;
const NOW = Date.parse('2026-12-07T12:00:00.000Z');

function entry(actor: string, action: string, target: string, at = new Date(NOW)): NewAuditEntry {
  return { at, actor, action, target };
}

/** Every page of `query`, following `next`, as `actor:action:target` in the order given. */
async function allPages(store: AuditStore, query: AuditQuery): Promise<{ seen: string[]; pages: number }> {
  const seen: string[] = [];
  let pages = 0;
  let beforeId: string | undefined;
  do {
    const page = await store.list({ ...query, ...(beforeId && { beforeId }) });
    seen.push(...page.entries.map(label));
    beforeId = page.next;
    pages++;
  } while (beforeId && pages < 100);
  return { seen, pages };
}

function label({ actor, action, target }: AuditEntry): string {
  return `${actor}:${action}:${target}`;
}

/** The behaviour every AuditStore must have, whatever it is backed by. */
export function describeAuditStoreContract(name: string, fixture: () => Promise<AuditStoreFixture>): void {
  describe(`${name} AuditStore contract`, () => {
    let backing: AuditStoreFixture;
    let store: AuditStore;

    beforeAll(async () => {
      backing = await fixture();
    });
    afterAll(() => backing?.close());
    beforeEach(async () => {
      store = await backing.fresh();
    });

    it('lists entries newest first, each with an id, its instant and its detail as appended', async () => {
      await store.append({ ...entry('ops', 'console.login', 'console'), detail: { ip: '127.0.0.1' } });
      await store.append(entry('ops', 'task.cancel', 'task:t1', new Date(NOW + 1)));
      const { entries, next } = await store.list({ limit: 10 });
      expect(entries).toEqual([
        { id: expect.any(String), at: new Date(NOW + 1), actor: 'ops', action: 'task.cancel', target: 'task:t1' },
        {
          id: expect.any(String),
          at: new Date(NOW),
          actor: 'ops',
          action: 'console.login',
          target: 'console',
          detail: { ip: '127.0.0.1' },
        },
      ]);
      expect(entries[0].id).not.toBe(entries[1].id);
      expect(next).toBeUndefined();
    });

    it('filters by actor, action and target exactly, and by time from `since` on', async () => {
      await store.append(entry('ops', 'console.login', 'console', new Date(NOW - DAY)));
      await store.append(entry('ops', 'task.cancel', 'task:t1'));
      await store.append(entry('ops-2', 'task.cancel', 'task:t1'));
      await store.append(entry('anonymous', 'console.login_refused', 'console'));
      const labels = async (query: Omit<AuditQuery, 'limit'>) =>
        (await store.list({ ...query, limit: 10 })).entries.map(label);

      expect(await labels({ actor: 'ops' })).toEqual(['ops:task.cancel:task:t1', 'ops:console.login:console']);
      expect(await labels({ actor: 'op' })).toEqual([]);
      expect(await labels({ action: 'task.cancel' })).toEqual(['ops-2:task.cancel:task:t1', 'ops:task.cancel:task:t1']);
      expect(await labels({ target: 'console' })).toEqual([
        'anonymous:console.login_refused:console',
        'ops:console.login:console',
      ]);
      expect(await labels({ actor: 'ops', target: 'task:t1' })).toEqual(['ops:task.cancel:task:t1']);
      expect(await labels({ actor: 'ops', since: new Date(NOW) })).toEqual(['ops:task.cancel:task:t1']);
      expect(await labels({ actor: 'ops', since: new Date(NOW - DAY) })).toHaveLength(2);
      // Postgres text cannot hold U+0000: no entry has it, and asking for it finds none rather than failing.
      expect(await labels({ actor: 'ops\u0000' })).toEqual([]);
    });

    it('pages through every matching entry once, newest first', async () => {
      for (let i = 0; i < 7; i++) await store.append(entry('ops', 'task.cancel', `task:${i}`));
      await store.append(entry('other', 'task.cancel', 'task:other'));
      const { seen, pages } = await allPages(store, { actor: 'ops', limit: 3 });
      expect(pages).toBe(3);
      expect(seen).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `ops:task.cancel:task:${i}`));
    });

    it('has no next page when the last page is exactly full', async () => {
      for (let i = 0; i < 3; i++) await store.append(entry('ops', 'task.cancel', `task:${i}`));
      expect((await store.list({ limit: 3 })).next).toBeUndefined();
      expect((await store.list({ limit: 2 })).next).toBeDefined();
    });

    it('removes the entries from before a cutoff, and says how many', async () => {
      await store.append(entry('ops', 'console.login', 'console', new Date(NOW - 2 * DAY)));
      await store.append(entry('ops', 'console.login', 'console', new Date(NOW - DAY - 1)));
      await store.append(entry('ops', 'task.cancel', 'task:kept', new Date(NOW - DAY)));
      expect(await store.removeBefore(new Date(NOW - DAY))).toBe(2);
      expect((await store.list({ limit: 10 })).entries.map(label)).toEqual(['ops:task.cancel:task:kept']);
      expect(await store.removeBefore(new Date(NOW - DAY))).toBe(0);
    });

    it('keeps what it was given apart from the caller', async () => {
      const given = { ...entry('ops', 'console.login', 'console'), detail: { ip: '127.0.0.1' } };
      await store.append(given);
      given.detail.ip = 'changed';
      const [listed] = (await store.list({ limit: 1 })).entries;
      listed.detail!.ip = 'changed too';
      expect((await store.list({ limit: 1 })).entries[0].detail).toEqual({ ip: '127.0.0.1' });
    });
  });
}
