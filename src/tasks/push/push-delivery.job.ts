import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { PushNotificationStore } from '@a2a-js/sdk/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { OnJob } from '../../queue/on-job.decorator';
import { JobAttempt, JobName, PushDeliveryPayload } from '../../queue/queue.constants';
import { createGuardedFetch } from '../../security/guarded-fetch';
import { OutboundUrlPolicy, OutboundUrlBlockedError } from '../../security/outbound-url-policy';
import { PUSH_CONFIGS } from './push-configs.token';
import { callContextOf } from '../caller-scope';

/** The header the SDK's own sender puts a config's token in. */
const TOKEN_HEADER = 'X-A2A-Notification-Token';

/**
 * POSTs one notification to one webhook, as its config says at delivery time (a config deleted
 * meanwhile gets nothing); a failure throws, so the queue retries it with backoff.
 */
@Injectable()
export class PushDeliveryJob {
  private readonly logger = new Logger(PushDeliveryJob.name);
  private readonly fetch: typeof fetch;

  constructor(
    @Inject(PUSH_CONFIGS) private readonly configs: PushNotificationStore,
    policy: OutboundUrlPolicy,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.fetch = createGuardedFetch(policy, { timeoutMs: config.get('a2a', { infer: true }).push.timeout_ms });
  }

  @OnJob(JobName.PushDelivery)
  async deliver({ taskId, configId, caller, body, contentType }: PushDeliveryPayload, attempt: JobAttempt): Promise<void> {
    const webhook = (await this.configs.load(taskId, callContextOf(caller))).find((config) => config.id === configId);
    if (!webhook) {
      this.logger.log({ taskId, configId }, 'push notification dropped: its config was deleted');
      return;
    }
    try {
      const response = await this.fetch(webhook.url, { method: 'POST', headers: { 'content-type': contentType, ...credentialHeaders(webhook) }, body });
      await response.body?.cancel();
      if (!response.ok) throw new Error(`webhook answered HTTP ${response.status}`);
    } catch (error) {
      const blocked = error instanceof OutboundUrlBlockedError;
      // Webhook URLs often carry their secret in the path or query: the origin tells which server failed.
      const origin = URL.canParse(webhook.url) ? new URL(webhook.url).origin : undefined;
      const err = blocked ? error.reason : (error as Error).message;
      this.logger.warn({ taskId, configId, origin, attempt: attempt.attemptsStarted, err }, 'push notification not delivered');
      // A blocked URL stays blocked: no point retrying it.
      if (blocked) return;
      throw error;
    }
  }
}

/** The config's auth scheme and credentials, else its token, as the SDK's own sender sends them. */
function credentialHeaders(config: TaskPushNotificationConfig): Record<string, string> {
  if (config.authentication?.scheme && config.authentication.credentials) {
    return { authorization: `${config.authentication.scheme} ${config.authentication.credentials}` };
  }
  return config.token ? { [TOKEN_HEADER]: config.token } : {};
}
