import { MemoryAuditStore } from '../../src/audit/memory-audit-store';
import { LocalCatalogNotices } from '../../src/catalog/catalog-notices';
import { CatalogSource } from '../../src/catalog/catalog-source.service';
import type { CatalogContents } from '../../src/catalog/catalog-store.interface';
import { CatalogSync } from '../../src/catalog/catalog-sync.service';
import { MemoryCatalogStore } from '../../src/catalog/memory-catalog-store';
import { ConfigError } from '../../src/config/config-error';
import { LiveCatalog } from '../../src/config/live-catalog';
import { testConfig } from '../support/test-app';

/** A memory store whose readings wait until the test lets each one through. */
class GatedStore extends MemoryCatalogStore {
  readonly waiting: (() => void)[] = [];
  override async contents(): Promise<CatalogContents> {
    await new Promise<void>((release) => this.waiting.push(release));
    return super.contents();
  }
}

describe('CatalogSync', () => {
  const config = testConfig();
  const setUp = (loadConfig = () => ({ config })) => {
    const store = new GatedStore(new MemoryAuditStore());
    const source = new CatalogSource(store, config);
    const live = new LiveCatalog(source.file.catalog);
    const sync = new CatalogSync(source, live, new LocalCatalogNotices(), loadConfig, config, false);
    return { store, live, sync };
  };
  const released = async (store: GatedStore) => {
    while (store.waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
    store.waiting.shift()!();
  };

  it('reads again for a refresh asked while a reading runs, and applies what that reading found', async () => {
    const { store, live, sync } = setUp();
    const first = sync.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    // Stored after the first reading began: only a later reading can see it.
    await store.apply(
      {
        op: 'create',
        kind: 'mcp_servers',
        name: 'late',
        body: { name: 'late', transport: { type: 'http', url: 'https://mcp.example.com/mcp' } },
        maxEntries: 10,
      },
      () => ({ at: new Date(), actor: 'test', action: 'catalog.create', target: 'mcp_server:late' }),
    );
    const second = sync.refresh();
    const third = sync.refresh();
    await released(store);
    await first;
    expect(live.current.mcp_servers.map(({ name }) => name)).toEqual(['late']);
    let settled = false;
    void second.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await released(store);
    await Promise.all([second, third]);
    expect(store.waiting).toHaveLength(0);
    expect(sync.revision).toBe(1);
  });

  it('keeps the last good catalog when the file does not load, and says why until a reload succeeds', async () => {
    let load: () => { config: typeof config } = () => {
      throw new ConfigError('switchboard.toml', ['agents[0].executor: Invalid input']);
    };
    const { store, live, sync } = setUp(() => load());
    const before = live.current;
    await sync.reloadFile();
    expect(live.current).toBe(before);
    expect(sync.problem).toMatch(
      /^the file was not reloaded: .*agents\[0\]\.executor.*the last good catalog stays in use/,
    );
    load = () => ({ config });
    const reloading = sync.reloadFile();
    await released(store);
    await reloading;
    expect(sync.problem).toBeUndefined();
  });
});
