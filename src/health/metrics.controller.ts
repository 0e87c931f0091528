import { Controller, Get, Header } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';

/** `GET /metrics`, behind the bearer guard as every route not marked public. */
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
