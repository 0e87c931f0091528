import { MemoryMcpEventStore } from '../../../src/mcp-server/stores/memory-mcp-event-store';
import { describeMcpEventStoreContract } from './mcp-event-store.contract';

describeMcpEventStoreContract('memory', async () => {
  return { store: new MemoryMcpEventStore(), close: async () => undefined };
});
