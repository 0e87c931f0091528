import { StreamResponse } from '@a2a-js/sdk';
import { MemoryTaskEventStream } from '../../../src/tasks/events/memory-task-event-stream';
import {
  CLOSED_STREAM_TTL_SECS,
  UNCLOSED_STREAM_TTL_SECS,
} from '../../../src/tasks/events/task-event-stream.interface';
import { describeTaskEventStreamContract } from './task-event-stream.contract';

describeTaskEventStreamContract('memory', async () => {
  const shared = new MemoryTaskEventStream(1_000);
  const bounded = new MemoryTaskEventStream(10);
  return { stream: (maxLen) => (maxLen === 10 ? bounded : shared), close: async () => undefined };
});

describe('memory TaskEventStream lifetimes', () => {
  const working = StreamResponse.fromJSON({
    statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
  });
  const minute = 60_000;

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('drops a closed stream about CLOSED_STREAM_TTL_SECS after its close, and an unclosed one UNCLOSED_STREAM_TTL_SECS after its last event', async () => {
    const stream = new MemoryTaskEventStream(1_000);
    await stream.publish('closed', [working], { close: true });
    await stream.publish('open', [working]);

    jest.advanceTimersByTime(CLOSED_STREAM_TTL_SECS * 1000 - minute);
    expect(await stream.tail('closed')).toBe('2');
    jest.advanceTimersByTime(2 * minute);
    expect(await stream.tail('closed')).toBe(stream.start);

    await stream.publish('open', [working]);
    jest.advanceTimersByTime(UNCLOSED_STREAM_TTL_SECS * 1000 - minute);
    expect(await stream.tail('open')).toBe('2');
    jest.advanceTimersByTime(2 * minute);
    expect(await stream.tail('open')).toBe(stream.start);
  });
});
