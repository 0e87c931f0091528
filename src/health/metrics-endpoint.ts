import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { CallerAuthenticator } from '../security/caller-authenticator';
import { MetricsService } from '../metrics/metrics.service';

export interface ScrapeAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * `/metrics` outside the API's router (a worker's health port), under the API's rule: with API keys
 * or issuers configured, a scrape needs `Authorization: Bearer <api key or access token>` as the
 * API's `/metrics` does.
 */
@Injectable()
export class MetricsEndpoint {
  constructor(
    private readonly metrics: MetricsService,
    private readonly callers: CallerAuthenticator,
  ) {}

  async scrape(request: IncomingMessage): Promise<ScrapeAnswer> {
    if (this.callers.required && (await this.callers.authenticate(request)).kind !== 'valid') {
      const body = JSON.stringify({
        status: 'error',
        message: 'metrics need "Authorization: Bearer <api key or access token>"',
      });
      return {
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': this.callers.challenge() },
        body,
      };
    }
    return {
      status: 200,
      headers: { 'content-type': this.metrics.registry.contentType },
      body: await this.metrics.registry.metrics(),
    };
  }
}
