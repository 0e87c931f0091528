import { MemoryCancelSignals } from '../../../src/tasks/cancel/memory-cancel-signals';
import { describeCancelSignalsContract } from './cancel-signals.contract';

describeCancelSignalsContract('memory', async () => {
  const signals = new MemoryCancelSignals();
  return { requester: signals, watcher: signals, close: async () => undefined };
});
