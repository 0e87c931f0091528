import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { PushNotificationStore } from '@a2a-js/sdk/server';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomUUID } from 'node:crypto';
import { backoffDelayMs } from '../../common/backoff';
import type { SwitchboardConfig } from '../../config/config.schema';
import { EnqueueOptions, JOB_QUEUE, JobQueue } from '../../queue/job-queue.interface';
import { OnJob } from '../../queue/on-job.decorator';
import { JobName, PushDeliveryPayload } from '../../queue/queue.constants';
import { createGuardedFetch } from '../../security/guarded-fetch';
import { OutboundUrlPolicy, OutboundUrlBlockedError } from '../../security/outbound-url-policy';
import type { TaskActivityEntry } from '../activity/task-activity.interface';
import { TaskActivity } from '../activity/task-activity.service';
import { callContextOf } from '../caller-scope';
import { PUSH_CONFIGS } from './push-configs.token';
import { PendingNotification, PUSH_OUTBOX, PushOutbox } from './push-outbox.interface';

/** The header the SDK's own sender puts a config's token in. */
const TOKEN_HEADER = 'X-A2A-Notification-Token';

/**
 * Delivers a task's notifications to one webhook, in order: the job that claims the outbox POSTs
 * its notifications one after the other, each as the config says at delivery time (a config
 * deleted meanwhile drops them). A failed delivery stays first, tried again with backoff up to
 * `a2a.push.max_attempts` times, then given up; later notifications wait for it, so a receiver never
 * sees a task's events out of order. A job that finds the outbox claimed leaves it to the holder;
 * should the holder's worker die, the queue runs its job again once the claim has lapsed.
 */
@Injectable()
export class PushDeliveryJob {
  private readonly logger = new Logger(PushDeliveryJob.name);
  private readonly fetch: typeof fetch;
  private readonly push: SwitchboardConfig['a2a']['push'];
  /** Long enough for one delivery; renewed before each. */
  private readonly claimMs: number;

  constructor(
    @Inject(PUSH_CONFIGS) private readonly configs: PushNotificationStore,
    @Inject(PUSH_OUTBOX) private readonly outbox: PushOutbox,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly activity: TaskActivity,
    policy: OutboundUrlPolicy,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.push = config.get('a2a', { infer: true }).push;
    this.claimMs = this.push.timeout_ms * 2;
    this.fetch = createGuardedFetch(policy, { timeoutMs: this.push.timeout_ms });
  }

  @OnJob(JobName.PushDelivery)
  async deliver(payload: PushDeliveryPayload): Promise<void> {
    const { taskId, configId } = payload;
    const holder = randomUUID();
    if (!(await this.outbox.claim(taskId, configId, holder, this.claimMs))) return;
    let retryInMs: number | undefined;
    try {
      retryInMs = await this.drain(payload, holder);
    } finally {
      await this.outbox.release(taskId, configId, holder);
    }
    // A notification added after the last look found the outbox claimed, and left it to this job.
    if (retryInMs !== undefined || (await this.outbox.head(taskId, configId)))
      await this.lookAgain(payload, retryInMs ?? 0);
  }

  /** Delivers until the outbox is empty (undefined) or its first notification must wait: then in how many ms to try it again. */
  private async drain({ taskId, configId, caller }: PushDeliveryPayload, holder: string): Promise<number | undefined> {
    for (let next = await this.outbox.head(taskId, configId); next; next = await this.outbox.head(taskId, configId)) {
      const waitMs = next.retryAt - Date.now();
      if (waitMs > 0) return waitMs;
      const webhook = (await this.configs.load(taskId, callContextOf(caller))).find((config) => config.id === configId);
      if (!webhook) {
        this.logger.log({ taskId, configId }, 'push notifications dropped: their config was deleted');
        await this.outbox.clear(taskId, configId);
        return undefined;
      }
      await this.outbox.renew(taskId, configId, holder, this.claimMs);
      if (await this.post(taskId, webhook, next)) await this.outbox.shift(taskId, configId);
      else await this.failed(taskId, configId, next);
    }
    return undefined;
  }

  /** Whether the notification is done with: delivered, or its URL blocked (it stays blocked: no retry). */
  private async post(
    taskId: string,
    webhook: TaskPushNotificationConfig,
    { body, contentType, attempts }: PendingNotification,
  ): Promise<boolean> {
    const started = Date.now();
    const attempt = attempts + 1;
    try {
      const response = await this.fetch(webhook.url, {
        method: 'POST',
        headers: { 'content-type': contentType, ...credentialHeaders(webhook) },
        body,
      });
      await response.body?.cancel();
      await this.activity.record(taskId, deliveryEntry(webhook, started, attempt, `HTTP ${response.status}`));
      if (response.ok) return true;
      throw new WebhookRefusal(response.status);
    } catch (error) {
      const blocked = error instanceof OutboundUrlBlockedError;
      // Webhook URLs often carry their secret in the path or query: the origin tells which server failed.
      const origin = URL.canParse(webhook.url) ? new URL(webhook.url).origin : undefined;
      const err = blocked ? error.reason : (error as Error).message;
      this.logger.warn({ taskId, configId: webhook.id, origin, attempt, err }, 'push notification not delivered');
      if (!(error instanceof WebhookRefusal))
        await this.activity.record(
          taskId,
          deliveryEntry(webhook, started, attempt, blocked ? 'blocked' : 'error', err),
        );
      return blocked;
    }
  }

  /** The first notification failed: it waits its backoff, or is given up after the last attempt and the next one goes. */
  private async failed(taskId: string, configId: string, head: PendingNotification): Promise<void> {
    const attempts = head.attempts + 1;
    if (attempts >= this.push.max_attempts) {
      this.logger.warn({ taskId, configId, attempts }, 'push notification given up');
      await this.outbox.shift(taskId, configId);
      return;
    }
    const retryAt =
      Date.now() +
      backoffDelayMs(attempts - 1, {
        baseMs: this.push.backoff_ms,
        maxMs: this.push.backoff_ms * 2 ** (this.push.max_attempts - 1),
      });
    await this.outbox.updateHead(taskId, configId, { ...head, attempts, retryAt });
  }

  private lookAgain(payload: PushDeliveryPayload, delayMs: number): Promise<void> {
    return this.queue.enqueue(JobName.PushDelivery, payload, { delayMs, retry: pushJobRetry(this.push) });
  }
}

/** The webhook answered, with an error status (recorded as its answer, not as a failure to reach it). */
class WebhookRefusal extends Error {
  constructor(status: number) {
    super(`webhook answered HTTP ${status}`);
  }
}

/** A delivery attempt on its task's timeline: the config and the webhook's host, never its path or query (they often carry a secret). */
function deliveryEntry(
  webhook: TaskPushNotificationConfig,
  startedMs: number,
  attempt: number,
  outcome: string,
  error?: string,
): TaskActivityEntry {
  const host = URL.canParse(webhook.url) ? new URL(webhook.url).host : 'an unparsable URL';
  return {
    at: new Date(startedMs).toISOString(),
    kind: 'webhook_delivery',
    summary: `webhook ${webhook.id} at ${host}: ${outcome}`,
    durationMs: Date.now() - startedMs,
    outcome,
    detail: { configId: webhook.id, host, attempt, ...(error && { error }) },
  };
}

/** A push-delivery job that fails (its stores unreachable, not its webhook) runs again with the webhooks' backoff. */
export function pushJobRetry(push: SwitchboardConfig['a2a']['push']): EnqueueOptions['retry'] {
  return { attempts: push.max_attempts, backoffMs: push.backoff_ms };
}

/** The config's auth scheme and credentials, else its token, as the SDK's own sender sends them. */
function credentialHeaders(config: TaskPushNotificationConfig): Record<string, string> {
  if (config.authentication?.scheme && config.authentication.credentials) {
    return { authorization: `${config.authentication.scheme} ${config.authentication.credentials}` };
  }
  return config.token ? { [TOKEN_HEADER]: config.token } : {};
}
