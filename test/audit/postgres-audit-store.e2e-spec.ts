import { PostgresAuditStore } from '../../src/audit/postgres-audit-store';
import { describeAuditStoreContract } from './contracts/audit-store.contract';
import { connectPrisma } from '../support/store-connections';
import { createTestDatabase } from '../support/test-database';

describeAuditStoreContract('postgres', async () => {
  const database = await createTestDatabase();
  const prisma = connectPrisma(database.url);
  return {
    fresh: async () => {
      await prisma.$executeRaw`TRUNCATE audit_entries`;
      return new PostgresAuditStore(prisma);
    },
    close: async () => {
      await prisma.onApplicationShutdown();
      await database.drop();
    },
  };
});
