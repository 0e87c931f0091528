import * as promClient from 'prom-client';
import { MetricsService } from './metrics.service';

jest.mock('prom-client', () => {
  const actual = jest.requireActual<typeof promClient>('prom-client');
  return { ...actual, collectDefaultMetrics: jest.fn(actual.collectDefaultMetrics) };
});

describe('MetricsService', () => {
  it('samples event-loop delay every 100 ms, not every 10: an idle process is not woken 100 times a second', async () => {
    const metrics = new MetricsService();

    expect(promClient.collectDefaultMetrics).toHaveBeenCalledWith(
      expect.objectContaining({ register: metrics.registry, eventLoopMonitoringPrecision: 100 }),
    );
    expect(await metrics.registry.getSingleMetricAsString('switchboard_nodejs_eventloop_lag_p99_seconds')).toContain(
      'switchboard_nodejs_eventloop_lag_p99_seconds',
    );
  });
});
