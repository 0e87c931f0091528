import { MemoryTaskStore } from '../../src/task-store/memory-task-store';
import { describeTaskStoreContract } from './contracts/task-store.contract';

describeTaskStoreContract('memory', async () => ({
  fresh: async () => ({ store: new MemoryTaskStore() }),
  close: async () => undefined,
}));
