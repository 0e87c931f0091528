/** The process's metrics registry, for every role: the API serves it at `/metrics`, a worker on its health port. */
import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';

@Global()
@Module({
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
