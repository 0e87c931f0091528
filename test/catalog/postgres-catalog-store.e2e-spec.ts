import { PostgresAuditStore } from '../../src/audit/postgres-audit-store';
import { PostgresCatalogStore } from '../../src/catalog/postgres-catalog-store';
import { connectPrisma } from '../support/store-connections';
import { createTestDatabase } from '../support/test-database';
import { describeCatalogStoreContract } from './contracts/catalog-store.contract';

describeCatalogStoreContract('postgres', async () => {
  const database = await createTestDatabase();
  const prisma = connectPrisma(database.url);
  return {
    fresh: async () => {
      await prisma.$executeRaw`TRUNCATE catalog_entries, audit_entries`;
      return { store: new PostgresCatalogStore(prisma), audit: new PostgresAuditStore(prisma) };
    },
    close: async () => {
      await prisma.onApplicationShutdown();
      await database.drop();
    },
  };
});
