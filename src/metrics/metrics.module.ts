/** The process's metrics registry, for every role: the API serves it at `/metrics`, a worker on its health port. */
import { Global, Module } from '@nestjs/common';
import { MetricsEndpoint } from './metrics-endpoint';
import { MetricsService } from './metrics.service';

@Global()
@Module({
  providers: [MetricsService, MetricsEndpoint],
  exports: [MetricsService, MetricsEndpoint],
})
export class MetricsModule {}
