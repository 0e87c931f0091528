import { TaskScopeConflictError } from '../../task-store/task-store.errors';
import { retryStoreCall, type StoreRetryClock, type StoreRetryPolicy } from './store-retry';

/** A clock whose sleeps pass at once, adding to its time. */
function fakeClock(): StoreRetryClock & { slept: number[] } {
  let now = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

/** A store call that fails `failures` times, then answers `done`. */
function flaky(failures: number, error: Error = new Error('connect ECONNREFUSED')): jest.Mock<Promise<string>> {
  let calls = 0;
  return jest.fn(async () => {
    if (calls++ < failures) throw error;
    return 'done';
  });
}

const POLICY: StoreRetryPolicy = { baseMs: 100, maxMs: 1_000, deadlineMs: 5_000 };

describe('retryStoreCall', () => {
  it('tries a failing call again with growing waits until it succeeds', async () => {
    const clock = fakeClock();
    const write = flaky(4);
    const retries: number[] = [];
    await expect(retryStoreCall(write, POLICY, (_error, failures) => retries.push(failures), clock)).resolves.toBe(
      'done',
    );
    expect(write).toHaveBeenCalledTimes(5);
    expect(retries).toEqual([1, 2, 3, 4]);
    expect(clock.slept[3]).toBeGreaterThan(clock.slept[0]);
    expect(Math.max(...clock.slept)).toBeLessThanOrEqual(POLICY.maxMs);
  });

  it('throws the last error once the deadline after the first failure has passed', async () => {
    const clock = fakeClock();
    const write = flaky(Infinity);
    await expect(retryStoreCall(write, POLICY, () => undefined, clock)).rejects.toThrow('ECONNREFUSED');
    expect(clock.now()).toBe(POLICY.deadlineMs);
    expect(write.mock.calls.length).toBeGreaterThan(5);
  });

  it('never retries with a deadline of 0', async () => {
    const write = flaky(1);
    await expect(retryStoreCall(write, { ...POLICY, deadlineMs: 0 }, () => undefined, fakeClock())).rejects.toThrow(
      'ECONNREFUSED',
    );
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('does not retry a call refused for good (a task id of another scope)', async () => {
    const write = flaky(1, new TaskScopeConflictError('t1'));
    await expect(retryStoreCall(write, POLICY, () => undefined, fakeClock())).rejects.toBeInstanceOf(
      TaskScopeConflictError,
    );
    expect(write).toHaveBeenCalledTimes(1);
  });
});
