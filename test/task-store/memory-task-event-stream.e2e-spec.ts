import { MemoryTaskEventStream } from '../../src/task-store/memory-task-event-stream';
import { describeTaskEventStreamContract } from './contracts/task-event-stream.contract';

describeTaskEventStreamContract('memory', async () => {
  const shared = new MemoryTaskEventStream(1_000);
  const bounded = new MemoryTaskEventStream(10);
  return { stream: (maxLen) => (maxLen === 10 ? bounded : shared), close: async () => undefined };
});
