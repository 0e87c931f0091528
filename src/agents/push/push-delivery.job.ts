import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { OnJob } from '../../queue/on-job.decorator';
import { JobAttempt, JobName, PushDeliveryPayload } from '../../queue/queue.constants';
import { createGuardedFetch } from '../../security/guarded-fetch';
import { OutboundUrlPolicy, OutboundUrlBlockedError } from '../../security/outbound-url-policy';

/** POSTs one notification to one webhook; a failure throws, so the queue retries it with backoff. */
@Injectable()
export class PushDeliveryJob {
  private readonly logger = new Logger(PushDeliveryJob.name);
  private readonly fetch: typeof fetch;

  constructor(policy: OutboundUrlPolicy, config: ConfigService<SwitchboardConfig, true>) {
    this.fetch = createGuardedFetch(policy, { timeoutMs: config.get('a2a', { infer: true }).push.timeout_ms });
  }

  @OnJob(JobName.PushDelivery)
  async deliver({ taskId, url, headers, body }: PushDeliveryPayload, attempt: JobAttempt): Promise<void> {
    try {
      const response = await this.fetch(url, { method: 'POST', headers, body });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`webhook answered HTTP ${response.status}`);
    } catch (error) {
      const blocked = error instanceof OutboundUrlBlockedError;
      this.logger.warn({ taskId, url, attempt: attempt.attemptsStarted, err: (error as Error).message }, 'push notification not delivered');
      // A blocked URL stays blocked: no point retrying it.
      if (blocked) return;
      throw error;
    }
  }
}
