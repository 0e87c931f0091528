import type { CancelSignals } from '../../../src/tasks/cancel/cancel-signals.interface';

export interface CancelSignalsFixture {
  /** Two handles on the same signals, as two replicas would hold (the same object in memory mode). */
  requester: CancelSignals;
  watcher: CancelSignals;
  close(): Promise<void>;
}

/** Whether `signal` aborts within a second: false tells a lost cancel apart from jest's timeout. */
function aborted(signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 1_000);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

let counter = 0;
const taskId = () => `task-${process.pid}-${++counter}`;

/** The behaviour every CancelSignals must have, whatever it is backed by. */
export function describeCancelSignalsContract(name: string, fixture: () => Promise<CancelSignalsFixture>): void {
  describe(`${name} CancelSignals contract`, () => {
    let signals: CancelSignalsFixture;

    beforeAll(async () => {
      signals = await fixture();
    });
    afterAll(() => signals?.close());

    it('aborts a watch when another replica requests the cancel', async () => {
      const id = taskId();
      const watch = await signals.watcher.watch(id);
      expect(watch.signal.aborted).toBe(false);
      await signals.requester.request(id);
      expect(await aborted(watch.signal)).toBe(true);
      watch.dispose();
    });

    it('sees a cancel requested before the watch began', async () => {
      const id = taskId();
      await signals.requester.request(id);
      const watch = await signals.watcher.watch(id);
      expect(watch.signal.aborted).toBe(true);
      watch.dispose();
    });

    it('forgets the requests of tasks that are gone, and only those', async () => {
      const [gone, kept] = [taskId(), taskId()];
      await signals.requester.request(gone);
      await signals.requester.request(kept);
      await signals.requester.forget([gone]);
      expect(await signals.watcher.isRequested(gone)).toBe(false);
      expect(await signals.watcher.isRequested(kept)).toBe(true);
    });

    it('answers isRequested from any replica', async () => {
      const id = taskId();
      expect(await signals.watcher.isRequested(id)).toBe(false);
      await signals.requester.request(id);
      expect(await signals.watcher.isRequested(id)).toBe(true);
      expect(await signals.requester.isRequested(id)).toBe(true);
    });

    it('aborts every watch of the task and only those', async () => {
      const [id, other] = [taskId(), taskId()];
      const watches = await Promise.all([
        signals.watcher.watch(id),
        signals.watcher.watch(id),
        signals.requester.watch(id),
      ]);
      const bystander = await signals.watcher.watch(other);
      await signals.requester.request(id);
      expect(await Promise.all(watches.map((watch) => aborted(watch.signal)))).toEqual([true, true, true]);
      // The bystander's handle has handled the request (its watches of the task aborted): it was not for the bystander.
      expect(bystander.signal.aborted).toBe(false);
      [...watches, bystander].forEach((watch) => watch.dispose());
    });

    it('stops notifying a disposed watch', async () => {
      const id = taskId();
      const [watch, kept] = [await signals.watcher.watch(id), await signals.watcher.watch(id)];
      watch.dispose();
      await signals.requester.request(id);
      // The watch kept on the same handle aborting shows that the request arrived there.
      expect(await aborted(kept.signal)).toBe(true);
      expect(watch.signal.aborted).toBe(false);
      kept.dispose();
    });
  });
}
