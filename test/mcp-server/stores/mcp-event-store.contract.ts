import {
  MAX_EVENTS_PER_STREAM,
  type McpEventStore,
  type StoredEvent,
} from '../../../src/mcp-server/stores/mcp-event-store.interface';

export interface McpEventStoreFixture {
  /**
   * One store, writer and reader alike: a replica's writes go on without waiting for the backing
   * (a resumption arrives a network round trip after the event it names), so a reader elsewhere
   * may read before them.
   */
  store: McpEventStore;
  close(): Promise<void>;
}

const message = (n: number) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/progress',
  params: { progressToken: 't', progress: n },
});

async function collect(events: AsyncIterable<StoredEvent> | undefined): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const { message } of events ?? []) seen.push(message);
  return seen;
}

const notLast = () => false;

/** What every McpEventStore does, whichever replica writes and whichever resumes. */
export function describeMcpEventStoreContract(name: string, fixture: () => Promise<McpEventStoreFixture>): void {
  describe(`${name} McpEventStore contract`, () => {
    let stores: McpEventStoreFixture;

    beforeAll(async () => {
      stores = await fixture();
    });
    afterAll(() => stores?.close());

    it("replays a session's stream after an event, then what comes, until the stream ends", async () => {
      const request = stores.store.forRequest('s1', notLast);
      const first = await request.storeEvent('stream-1', message(1));
      await request.storeEvent('stream-1', message(2));
      const following = collect(await stores.store.follow('s1', first, new AbortController().signal));
      await request.storeEvent('stream-1', message(3));
      await request.end();
      expect(await following).toEqual([message(2), message(3)]);
    });

    it('ends a stream with its last event, with no end of its own', async () => {
      const last = message(2);
      const request = stores.store.forRequest('s1', (event) => event === last);
      const first = await request.storeEvent('stream-2', message(1));
      const following = collect(await stores.store.follow('s1', first, new AbortController().signal));
      await request.storeEvent('stream-2', last);
      expect(await following).toEqual([last]);
    });

    it("does not resume another session's stream, an unknown id, or one too far behind", async () => {
      const { store } = stores;
      const request = store.forRequest('s1', notLast);
      const first = await request.storeEvent('stream-3', message(0));
      const signal = new AbortController().signal;
      expect(await store.follow('s2', first, signal)).toBeUndefined();
      expect(await store.follow('s1', 'nonsense', signal)).toBeUndefined();
      // Past the cap by more than Redis's approximate trimming keeps (whole nodes of 100 entries).
      for (let n = 1; n <= MAX_EVENTS_PER_STREAM + 200; n++) await request.storeEvent('stream-3', message(n));
      expect(await store.follow('s1', first, signal)).toBeUndefined();
    });

    it('stops following when the reader goes', async () => {
      const first = await stores.store.forRequest('s1', notLast).storeEvent('stream-4', message(1));
      const reader = new AbortController();
      const following = collect(await stores.store.follow('s1', first, reader.signal));
      reader.abort();
      expect(await following).toEqual([]);
    });
  });
}
