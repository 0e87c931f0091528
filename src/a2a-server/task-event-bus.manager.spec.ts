import { ServerCallContext } from '@a2a-js/sdk/server';
import { MemoryTaskEventStream } from '../tasks/events/memory-task-event-stream';
import { TaskEventBusManager } from './task-event-bus.manager';

describe('TaskEventBusManager', () => {
  it('ends at once a send\u2019s bus made after its client left, so that a shutdown drain does not wait for it', async () => {
    const buses = new TaskEventBusManager({
      events: new MemoryTaskEventStream(100),
      get: async () => undefined,
      readsInProcess: true,
    });
    const context = new ServerCallContext();
    buses.abandon(context);

    const bus = buses.createOrGetByTaskId('task-1', context);
    let finished = false;
    bus.on('finished', () => (finished = true));
    bus.on('event', () => undefined);
    // The executor still learns where the turn begins, and queues it: the turn goes on, unfollowed.
    await bus.beginTurn(true);

    expect(await buses.drain(1_000)).toBe(true);
    expect(finished).toBe(true);
  });

  it('leaves the buses of other requests following their turns', async () => {
    const buses = new TaskEventBusManager({
      events: new MemoryTaskEventStream(100),
      get: async () => undefined,
      readsInProcess: true,
    });
    buses.abandon(new ServerCallContext());

    const bus = buses.createOrGetByTaskId('task-2', new ServerCallContext());
    bus.on('event', () => undefined);
    await bus.beginTurn(true);

    expect(await buses.drain(50)).toBe(false);
    bus.stop();
  });
});
