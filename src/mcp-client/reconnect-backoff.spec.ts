import { reconnectDelayMs } from './reconnect-backoff';

describe('reconnectDelayMs', () => {
  it('doubles with every failure', () => {
    expect([0, 1, 2, 3].map((failures) => reconnectDelayMs(failures, () => 1))).toEqual([500, 1000, 2000, 4000]);
  });

  it('is capped at 30 s', () => {
    expect(reconnectDelayMs(20, () => 1)).toBe(30_000);
    expect(reconnectDelayMs(1000, () => 1)).toBe(30_000);
  });

  it('is jittered over the upper half of the step', () => {
    expect(reconnectDelayMs(3, () => 0)).toBe(2000);
    expect(reconnectDelayMs(3, () => 0.5)).toBe(3000);
  });
});
