import type { Histogram, Registry } from 'prom-client';

/** The histogram of how long jobs waited for a worker (MetricsService). */
const QUEUE_WAIT_METRIC = 'switchboard_queue_wait_seconds';

/**
 * The median wait of each queue's jobs, in seconds, from this process's histogram: the upper bound
 * of the bucket the median falls in (a histogram keeps no more). Null for a queue none of whose jobs
 * this process started.
 */
export async function queueWaitMedians(
  registry: Registry,
  queues: readonly string[],
): Promise<Record<string, number | null>> {
  const histogram = registry.getSingleMetric(QUEUE_WAIT_METRIC) as Histogram | undefined;
  const values = histogram ? (await histogram.get()).values : [];
  return Object.fromEntries(
    queues.map((queue) => {
      const buckets = values.filter(
        (value) => value.metricName === `${QUEUE_WAIT_METRIC}_bucket` && value.labels.queue === queue,
      );
      const count = buckets.find((bucket) => bucket.labels.le === '+Inf')?.value ?? 0;
      if (count === 0) return [queue, null];
      const median = buckets
        .filter((bucket) => bucket.labels.le !== '+Inf')
        .find((bucket) => bucket.value >= count / 2);
      return [queue, median ? Number(median.labels.le) : null];
    }),
  );
}
