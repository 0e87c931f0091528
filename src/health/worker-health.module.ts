/** What a worker's health port serves: `/healthz`, `/readyz` and `/metrics` (worker-health.server.ts). */
import { Module } from '@nestjs/common';
import { MetricsEndpoint } from './metrics-endpoint';
import { ReadinessModule } from './readiness.module';

@Module({
  imports: [ReadinessModule],
  providers: [MetricsEndpoint],
  exports: [ReadinessModule, MetricsEndpoint],
})
export class WorkerHealthModule {}
