import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { IncomingMessage } from 'node:http';
import type { SwitchboardConfig } from '../config/config.schema';
import { ApiKeyService } from '../security/api-key.service';
import { MetricsService } from './metrics.service';

export interface ScrapeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * `/metrics` outside the API's router (a worker's health port), under the API's rule: with API keys
 * configured, a scrape needs `Authorization: Bearer <api key>` as the API's `/metrics` does.
 */
@Injectable()
export class MetricsEndpoint {
  private readonly apiKeys: ApiKeyService;

  constructor(
    private readonly metrics: MetricsService,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.apiKeys = new ApiKeyService(config.get('auth', { infer: true }).api_keys);
  }

  async scrape(request: IncomingMessage): Promise<ScrapeAnswer> {
    if (this.apiKeys.required && this.apiKeys.verifyRequest(request).kind !== 'valid') {
      const body = JSON.stringify({ status: 'error', message: 'metrics need "Authorization: Bearer <api key>"' });
      return { status: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="switchboard"' }, body };
    }
    return { status: 200, headers: { 'content-type': this.metrics.registry.contentType }, body: await this.metrics.registry.metrics() };
  }
}
