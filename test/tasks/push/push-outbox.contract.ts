import type { PushOutbox } from '../../../src/tasks/push/push-outbox.interface';
import { eventually } from '../../support/eventually';

export interface PushOutboxFixture {
  /** Two handles on the same outboxes, as two workers would hold (the same object in memory mode). */
  first: PushOutbox;
  second: PushOutbox;
  close(): Promise<void>;
}

let counter = 0;
const taskId = () => `task-${process.pid}-${++counter}`;
const note = (body: string) => ({ body, contentType: 'application/json' });

/** The behaviour every PushOutbox must have, whatever it is backed by. */
export function describePushOutboxContract(name: string, fixture: () => Promise<PushOutboxFixture>): void {
  describe(`${name} PushOutbox contract`, () => {
    let outboxes: PushOutboxFixture;

    beforeAll(async () => {
      outboxes = await fixture();
    });
    afterAll(() => outboxes?.close());

    it('keeps a task\u2019s notifications for one webhook in order, apart from other webhooks\u2019', async () => {
      const { first, second } = outboxes;
      const task = taskId();
      await first.append(task, 'a', [note('1'), note('2')]);
      await second.append(task, 'a', [note('3')]);
      await first.append(task, 'b', [note('other')]);
      const seen: string[] = [];
      for (let head = await second.head(task, 'a'); head; head = await second.head(task, 'a')) {
        seen.push(head.body);
        await second.shift(task, 'a');
      }
      expect(seen).toEqual(['1', '2', '3']);
      expect((await first.head(task, 'b'))?.body).toBe('other');
    });

    it('lets one holder at a time claim an outbox, until it releases or its claim lapses', async () => {
      const { first, second } = outboxes;
      const task = taskId();
      expect(await first.claim(task, 'a', 'holder-1', 60_000)).toBe(true);
      expect(await second.claim(task, 'a', 'holder-2', 60_000)).toBe(false);
      expect(await second.claim(task, 'b', 'holder-2', 60_000)).toBe(true);
      // Another holder's release leaves the claim alone.
      await second.release(task, 'a', 'holder-2');
      expect(await second.claim(task, 'a', 'holder-2', 60_000)).toBe(false);
      await first.release(task, 'a', 'holder-1');
      expect(await second.claim(task, 'a', 'holder-2', 1)).toBe(true);
      // A claim of 1 ms lapses (a holder that died), and another can take the outbox.
      await eventually(() => first.claim(task, 'a', 'holder-1', 60_000), Boolean);
    });

    it('records a failed attempt on the first notification, and clears an outbox', async () => {
      const { first, second } = outboxes;
      const task = taskId();
      await first.append(task, 'a', [note('1'), note('2')]);
      const head = (await first.head(task, 'a'))!;
      expect({ attempts: head.attempts, retryAt: head.retryAt }).toEqual({ attempts: 0, retryAt: 0 });
      await first.updateHead(task, 'a', { ...head, attempts: 1, retryAt: 1234 });
      expect(await second.head(task, 'a')).toEqual({ ...head, attempts: 1, retryAt: 1234 });
      await second.clear(task, 'a');
      expect(await first.head(task, 'a')).toBeUndefined();
    });
  });
}
