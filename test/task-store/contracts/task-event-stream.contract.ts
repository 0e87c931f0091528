import { StreamResponse } from '@a2a-js/sdk';
import { TaskEventStream, TaskEventStreamEntry, TaskEventStreamInterruptedError } from '../../../src/task-store/task-event-stream.interface';
import { eventually } from '../../support/eventually';
import { sleep } from '../support/fixtures';

export interface TaskEventStreamFixture {
  /** Streams bounded to `maxLen` entries; several calls share one backing, like replicas do. */
  stream(maxLen?: number): TaskEventStream;
  close(): Promise<void>;
}

function event(text: string): StreamResponse {
  return StreamResponse.fromJSON({
    statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING', message: { messageId: text, role: 'ROLE_AGENT', parts: [{ text }] } } },
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

    it('replays a closed stream from the start, in order, and ends', async () => {
      const id = taskId();
      for (const text of ['a', 'b', 'c']) await publisher.publish(id, [event(text)]);
      await publisher.publish(id, [], { close: true });
      const entries = await collect(reader.read(id, {}));
      expect(entries.map(textOf)).toEqual(['a', 'b', 'c']);
      expect(entries[0].event).toEqual(event('a'));
    });

    it('takes a batch and the close in one publish: ids of the events only, all read before the end', async () => {
      const id = taskId();
      const ids = await publisher.publish(id, [event('a'), event('b')], { close: true });
      expect(ids).toHaveLength(2);
      const entries = await collect(reader.read(id, {}));
      expect(entries.map(textOf)).toEqual(['a', 'b']);
      expect(entries.map((entry) => entry.id)).toEqual(ids);
    });

    it('resumes right after a given entry id', async () => {
      const id = taskId();
      const ids = [];
      for (const text of ['a', 'b', 'c']) ids.push(...(await publisher.publish(id, [event(text)])));
      await publisher.publish(id, [], { close: true });
      const entries = await collect(reader.read(id, { afterId: ids[0] }));
      expect(entries.map(textOf)).toEqual(['b', 'c']);
      expect(entries.map((entry) => entry.id)).toEqual(ids.slice(1));
    });

    it('follows live events after replaying earlier ones, until the stream closes', async () => {
      const id = taskId();
      await publisher.publish(id, [event('before')]);
      const reading = collect(reader.read(id, {}));
      await sleep(100);
      await publisher.publish(id, [event('live-1')]);
      await sleep(50);
      await publisher.publish(id, [event('live-2')]);
      await publisher.publish(id, [], { close: true });
      expect((await reading).map(textOf)).toEqual(['before', 'live-1', 'live-2']);
    });

    it('ends every waiting reader when the stream closes', async () => {
      const id = taskId();
      const readers = [collect(reader.read(id, {})), collect(backing.stream().read(id, {}))];
      await sleep(100);
      await publisher.publish(id, [], { close: true });
      expect(await Promise.all(readers)).toEqual([[], []]);
    });

    it('ends a waiting reader promptly when its signal aborts', async () => {
      const id = taskId();
      const controller = new AbortController();
      const reading = collect(reader.read(id, { signal: controller.signal }));
      await sleep(100);
      const started = Date.now();
      controller.abort();
      expect(await reading).toEqual([]);
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
      await eventually(async () => entries.length, (read) => read === 1);
      await publisher.remove([id]);
      await expect(reading).rejects.toBeInstanceOf(TaskEventStreamInterruptedError);
      await expect(reading).rejects.toThrow(id);
    });

    it('keeps about the last maxLen entries', async () => {
      const id = taskId();
      const bounded = backing.stream(10);
      for (let i = 0; i < 300; i++) await bounded.publish(id, [event(`e${i}`)]);
      await bounded.publish(id, [], { close: true });
      const entries = await collect(bounded.read(id, {}));
      expect(entries.length).toBeGreaterThanOrEqual(10);
      expect(entries.length).toBeLessThan(300);
      expect(textOf(entries[entries.length - 1])).toBe('e299');
    });
  });
}
