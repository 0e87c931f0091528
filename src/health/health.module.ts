/** Liveness, readiness and Prometheus metrics for the HTTP process. */
import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';
import { ReadinessModule } from './readiness.module';

@Module({
  imports: [ReadinessModule],
  controllers: [HealthController, MetricsController],
  providers: [MetricsService],
})
export class HealthModule {}
