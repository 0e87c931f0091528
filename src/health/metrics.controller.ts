import { Controller, Get, Header } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';
import { MetricsRoute } from '../security/metrics-route.decorator';

/** `GET /metrics`, behind the bearer guard as every route not marked public; the one route scrape credentials reach. */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @MetricsRoute()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
