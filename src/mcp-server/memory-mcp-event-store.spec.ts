import { MAX_EVENTS_PER_STREAM, StoredEvent } from './mcp-event-store.interface';
import { MemoryMcpEventStore } from './memory-mcp-event-store';

const message = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progressToken: 't', progress: n } });

async function collect(events: AsyncIterable<StoredEvent> | undefined): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const { message } of events ?? []) seen.push(message);
  return seen;
}

const notLast = () => false;

describe('MemoryMcpEventStore', () => {
  it("replays a session's stream after an event, then what comes, until the stream ends", async () => {
    const store = new MemoryMcpEventStore();
    const request = store.forRequest('s1', notLast);
    const first = await request.storeEvent('stream', message(1));
    await request.storeEvent('stream', message(2));
    const following = collect(await store.follow('s1', first, new AbortController().signal));
    await request.storeEvent('stream', message(3));
    await request.end();
    expect(await following).toEqual([message(2), message(3)]);
  });

  it('ends a stream with its last event, with no end of its own', async () => {
    const store = new MemoryMcpEventStore();
    const last = message(2);
    const request = store.forRequest('s1', (event) => event === last);
    const first = await request.storeEvent('stream', message(1));
    const following = collect(await store.follow('s1', first, new AbortController().signal));
    await request.storeEvent('stream', last);
    expect(await following).toEqual([last]);
  });

  it("does not resume another session's stream, an unknown id, or one too far behind", async () => {
    const store = new MemoryMcpEventStore();
    const request = store.forRequest('s1', notLast);
    const first = await request.storeEvent('stream', message(0));
    for (let n = 1; n <= MAX_EVENTS_PER_STREAM + 1; n++) await request.storeEvent('stream', message(n));
    const signal = new AbortController().signal;
    expect(await store.follow('s2', first, signal)).toBeUndefined();
    expect(await store.follow('s1', 'nonsense', signal)).toBeUndefined();
    expect(await store.follow('s1', first, signal)).toBeUndefined();
  });

  it('stops following when the reader goes', async () => {
    const store = new MemoryMcpEventStore();
    const first = await store.forRequest('s1', notLast).storeEvent('stream', message(1));
    const reader = new AbortController();
    const following = collect(await store.follow('s1', first, reader.signal));
    reader.abort();
    expect(await following).toEqual([]);
  });
});
