import { StreamResponse } from '@a2a-js/sdk';
import {
  type TaskEventStream,
  type TaskEventStreamEntry,
  TaskEventStreamInterruptedError,
} from '../../../src/tasks/events/task-event-stream.interface';
import { eventually } from '../../support/eventually';

export interface TaskEventStreamFixture {
  /** Streams bounded to `maxLen` entries; several calls share one backing, like replicas do. */
  stream(maxLen?: number): TaskEventStream;
  close(): Promise<void>;
}

function event(text: string): StreamResponse {
  return StreamResponse.fromJSON({
    statusUpdate: {
      taskId: 't',
      contextId: 'c',
      status: { state: 'TASK_STATE_WORKING', message: { messageId: text, role: 'ROLE_AGENT', parts: [{ text }] } },
    },
  });
}

function textOf(entry: TaskEventStreamEntry): string {
  return entry.event.payload?.$case === 'statusUpdate' ? entry.event.payload.value.status!.message!.messageId : '?';
}

async function collect(entries: AsyncIterable<TaskEventStreamEntry>): Promise<TaskEventStreamEntry[]> {
  const collected: TaskEventStreamEntry[] = [];
  for await (const entry of entries) collected.push(entry);
  return collected;
}

/**
 * Reads one entry at a time: once a reader has returned everything published so far, the next
 * entry it is asked for must come live, so a test publishes only after that.
 */
function oneByOne(entries: AsyncIterable<TaskEventStreamEntry>): { next(): Promise<string | undefined> } {
  const iterator = entries[Symbol.asyncIterator]();
  return {
    async next() {
      const { value, done } = await iterator.next();
      return done ? undefined : textOf(value);
    },
  };
}

let counter = 0;
const taskId = () => `task-${process.pid}-${++counter}`;

/** The behaviour every TaskEventStream must have, whatever it is backed by. */
export function describeTaskEventStreamContract(name: string, fixture: () => Promise<TaskEventStreamFixture>): void {
  describe(`${name} TaskEventStream contract`, () => {
    let backing: TaskEventStreamFixture;
    let publisher: TaskEventStream;
    let reader: TaskEventStream;

    beforeAll(async () => {
      backing = await fixture();
      publisher = backing.stream();
      reader = backing.stream();
    });
    afterAll(() => backing?.close());

    it('gives a reader that began before the close every event, in order, then ends', async () => {
      const id = taskId();
      const reading = collect(reader.read(id, {}));
      for (const text of ['a', 'b', 'c']) await publisher.publish(id, [event(text)]);
      await publisher.publish(id, [], { close: true });
      const entries = await reading;
      expect(entries.map(textOf)).toEqual(['a', 'b', 'c']);
      expect(entries[0].event).toEqual(event('a'));
    });

    it('replays a closed stream from the start, in order, and ends', async () => {
      const id = taskId();
      for (const text of ['a', 'b', 'c']) await publisher.publish(id, [event(text)]);
      await publisher.publish(id, [], { close: true });
      const entries = await collect(reader.read(id, {}));
      expect(entries.map(textOf)).toEqual(['a', 'b', 'c']);
      expect(entries[0].event).toEqual(event('a'));
    });

    it('tells what closed a stream: nothing before its close marker, nor when events follow it', async () => {
      const id = taskId();
      expect(await reader.closure(id)).toBeUndefined();
      await publisher.publish(id, [event('a')]);
      expect(await reader.closure(id)).toBeUndefined();
      await publisher.publish(id, [event('b')], { close: true });
      expect(await reader.closure(id)).toEqual({ lastEvent: event('b') });
      await publisher.publish(id, [event('c')]);
      expect(await reader.closure(id)).toBeUndefined();
      await publisher.publish(id, [], { close: true });
      expect(await reader.closure(id)).toEqual({ lastEvent: event('c') });
    });

    it('takes a batch and the close in one publish: ids of the events only, all read before the end', async () => {
      const id = taskId();
      const ids = await publisher.publish(id, [event('a'), event('b')], { close: true });
      expect(ids).toHaveLength(2);
      const entries = await collect(reader.read(id, {}));
      expect(entries.map(textOf)).toEqual(['a', 'b']);
      expect(entries.map((entry) => entry.id)).toEqual(ids);
    });

    it('keeps every event across turns and closes, oldest first, each with when it was appended', async () => {
      const id = taskId();
      expect(await reader.kept(id)).toEqual([]);
      const before = Date.now();
      const first = await publisher.publish(id, [event('a'), event('b')], { close: true });
      const second = await publisher.publish(id, [event('c')]);
      const kept = await reader.kept(id);
      expect(kept.map(textOf)).toEqual(['a', 'b', 'c']);
      expect(kept.map((entry) => entry.id)).toEqual([...first, ...second]);
      for (const { at } of kept) expect(at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
      for (const { at } of kept) expect(at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    });

    it('resumes right after a given entry id', async () => {
      const id = taskId();
      const ids = [];
      for (const text of ['a', 'b', 'c']) ids.push(...(await publisher.publish(id, [event(text)])));
      // The close comes while the reader is handing out what it found: it must still end.
      const reading = collect(reader.read(id, { afterId: ids[0] }));
      await publisher.publish(id, [], { close: true });
      const entries = await reading;
      expect(entries.map(textOf)).toEqual(['b', 'c']);
      expect(entries.map((entry) => entry.id)).toEqual(ids.slice(1));
    });

    /** Publishes two events one at a time, each read live by `entries`, then the close, which ends them. */
    async function expectLiveUntilClose(id: string, entries: { next(): Promise<string | undefined> }): Promise<void> {
      for (const text of ['live-1', 'live-2']) {
        const live = entries.next();
        await publisher.publish(id, [event(text)]);
        expect(await live).toBe(text);
      }
      const end = entries.next();
      await publisher.publish(id, [], { close: true });
      expect(await end).toBeUndefined();
    }

    it('follows live events after replaying earlier ones, until the stream closes', async () => {
      const id = taskId();
      await publisher.publish(id, [event('before')]);
      const entries = oneByOne(reader.read(id, {}));
      expect(await entries.next()).toBe('before');
      await expectLiveUntilClose(id, entries);
    });

    it('follows a later turn from after a close: its live events, until the next close', async () => {
      const id = taskId();
      await publisher.publish(id, [event('answer')], { close: true });
      await expectLiveUntilClose(id, oneByOne(reader.read(id, { afterId: await reader.tail(id) })));
    });

    it('ends every waiting reader when the stream closes', async () => {
      const id = taskId();
      await publisher.publish(id, [event('a')]);
      const readers = [oneByOne(reader.read(id, {})), oneByOne(backing.stream().read(id, {}))];
      for (const entries of readers) expect(await entries.next()).toBe('a');
      const ends = readers.map((entries) => entries.next());
      await publisher.publish(id, [], { close: true });
      expect(await Promise.all(ends)).toEqual([undefined, undefined]);
    });

    it('ends a waiting reader promptly when its signal aborts', async () => {
      const id = taskId();
      await publisher.publish(id, [event('a')]);
      const controller = new AbortController();
      const entries = oneByOne(reader.read(id, { signal: controller.signal }));
      expect(await entries.next()).toBe('a');
      const end = entries.next();
      const started = Date.now();
      controller.abort();
      expect(await end).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(500);
    });

    it('stops after the entry being read when the signal aborts mid-stream', async () => {
      const id = taskId();
      for (const text of ['a', 'b', 'c']) await publisher.publish(id, [event(text)]);
      const controller = new AbortController();
      const seen: string[] = [];
      for await (const entry of reader.read(id, { signal: controller.signal })) {
        seen.push(textOf(entry));
        controller.abort();
      }
      expect(seen).toEqual(['a']);
    });

    it('yields nothing for an already aborted signal', async () => {
      const id = taskId();
      await publisher.publish(id, [event('a')]);
      expect(await collect(reader.read(id, { signal: AbortSignal.abort() }))).toEqual([]);
    });

    it('removes the streams of tasks that are gone, and only those', async () => {
      const [gone, kept] = [taskId(), taskId()];
      const never = await reader.tail(taskId());
      await publisher.publish(gone, [event('a')], { close: true });
      await publisher.publish(kept, [event('b')], { close: true });
      const keptTail = await reader.tail(kept);
      await publisher.remove([gone]);
      expect(await reader.tail(gone)).toBe(never);
      expect(await reader.tail(kept)).toBe(keptTail);
      expect(keptTail).not.toBe(never);
    });

    it('interrupts a reader waiting on a stream that is removed', async () => {
      const id = taskId();
      await publisher.publish(id, [event('a')]);
      const entries: TaskEventStreamEntry[] = [];
      const reading = (async () => {
        for await (const entry of reader.read(id, {})) entries.push(entry);
      })();
      await eventually(
        async () => entries.length,
        (read) => read === 1,
      );
      await publisher.remove([id]);
      await expect(reading).rejects.toBeInstanceOf(TaskEventStreamInterruptedError);
      await expect(reading).rejects.toThrow(id);
    });

    it('keeps about the last maxLen entries', async () => {
      const id = taskId();
      const bounded = backing.stream(10);
      for (let i = 0; i < 300; i++) await bounded.publish(id, [event(`e${i}`)]);
      const reading = collect(bounded.read(id, {}));
      await bounded.publish(id, [], { close: true });
      const entries = await reading;
      expect(entries.length).toBeGreaterThanOrEqual(10);
      expect(entries.length).toBeLessThan(300);
      expect(textOf(entries[entries.length - 1])).toBe('e299');
    });
  });
}
