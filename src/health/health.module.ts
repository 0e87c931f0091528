/** Liveness, readiness and Prometheus metrics for the HTTP process. */
import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { HttpMetrics } from './http-metrics';
import { MetricsController } from './metrics.controller';
import { ReadinessModule } from './readiness.module';

@Module({
  imports: [ReadinessModule],
  controllers: [HealthController, MetricsController],
  providers: [HttpMetrics],
})
export class HealthModule {}
