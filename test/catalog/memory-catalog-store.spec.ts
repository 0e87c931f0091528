import { MemoryAuditStore } from '../../src/audit/memory-audit-store';
import { MemoryCatalogStore } from '../../src/catalog/memory-catalog-store';
import { describeCatalogStoreContract } from './contracts/catalog-store.contract';

describeCatalogStoreContract('memory', async () => ({
  fresh: async () => {
    const audit = new MemoryAuditStore();
    return { store: new MemoryCatalogStore(audit), audit };
  },
  close: async () => {},
}));
