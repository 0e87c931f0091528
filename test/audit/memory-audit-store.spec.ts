import { MemoryAuditStore } from '../../src/audit/memory-audit-store';
import { describeAuditStoreContract } from './contracts/audit-store.contract';

describeAuditStoreContract('memory', async () => ({
  fresh: async () => new MemoryAuditStore(),
  close: async () => undefined,
}));
