import { spanEvent } from '../../tracing/spans';
import { backoffDelayMs, type BackoffSettings } from '../../common/backoff';
import type { MetricsService, StoreOperation } from '../../metrics/metrics.service';
import { TaskScopeConflictError } from '../../task-store/task-store.errors';

export interface StoreRetryPolicy extends BackoffSettings {
  /** How long after the first failure a call is still tried again; 0: never. */
  deadlineMs: number;
}

export interface StoreRetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const REAL_CLOCK: StoreRetryClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Failures that trying again cannot mend. */
function isPermanent(error: unknown): boolean {
  return error instanceof TaskScopeConflictError;
}

/**
 * Runs `call` (a read or write of a store) until it succeeds: a failure (a store that is down or
 * restarting) is tried again with backoff until `deadlineMs` after the first one, then its error is
 * thrown. `onRetry` hears each failure that will be tried again.
 */
export async function retryStoreCall<T>(
  call: () => Promise<T>,
  policy: StoreRetryPolicy,
  onRetry: (error: unknown, failures: number, delayMs: number) => void,
  clock: StoreRetryClock = REAL_CLOCK,
): Promise<T> {
  let deadline: number | undefined;
  for (let failures = 0; ;) {
    try {
      return await call();
    } catch (error) {
      deadline ??= clock.now() + policy.deadlineMs;
      const delayMs = Math.min(backoffDelayMs(failures, policy), deadline - clock.now());
      if (isPermanent(error) || delayMs <= 0) throw error;
      onRetry(error, ++failures, delayMs);
      await clock.sleep(delayMs);
    }
  }
}

/**
 * retryStoreCall, counting under `operation` each failure tried again (and telling the active
 * span) and each call that fails for good because its store did (a permanent refusal is not the
 * store's failure).
 */
export function countedStoreCall<T>(
  call: () => Promise<T>,
  policy: StoreRetryPolicy,
  metrics: MetricsService,
  operation: StoreOperation,
  onRetry: (error: unknown, failures: number, delayMs: number) => void,
): Promise<T> {
  const retried = (error: unknown, failures: number, delayMs: number) => {
    metrics.storeRetried(operation);
    spanEvent('store retry', () => ({
      'db.operation.name': operation,
      'switchboard.store.failures': failures,
      'switchboard.store.delay_ms': delayMs,
      'error.type': (error as Error)?.name ?? 'Error',
    }));
    onRetry(error, failures, delayMs);
  };
  return retryStoreCall(call, policy, retried).catch((error: unknown) => {
    if (!isPermanent(error)) metrics.storeFailed(operation);
    throw error;
  });
}
