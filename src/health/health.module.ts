/** Liveness, readiness and Prometheus metrics for the HTTP process. */
import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { ReadinessService } from './readiness.service';

@Module({
  controllers: [HealthController, MetricsController],
  providers: [ReadinessService, MetricsService],
})
export class HealthModule {}
