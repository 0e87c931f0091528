import { StreamResponse, Task } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  PushNotificationSerializer,
  PushNotificationStore,
  ServerCallContext,
  StoredPushNotificationConfig,
  V1PushNotificationSerializer,
} from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { JOB_QUEUE, JobQueue } from '../../queue/job-queue.interface';
import { JobName } from '../../queue/queue.constants';
import { PUSH_CONFIG_STORE } from '../../task-store/push-config-store.token';

/** The header the SDK's own sender puts a config's token in. */
const TOKEN_HEADER = 'X-A2A-Notification-Token';

/**
 * Turns a task's events into webhook deliveries: the body in the wire version the client registered
 * its config over (the SDK's serializers), its token or auth header, one queued delivery per
 * webhook, retried with backoff by the push-delivery job.
 */
@Injectable()
export class PushNotifier {
  private readonly serializers: Record<string, PushNotificationSerializer> = {
    [A2A_LEGACY_PROTOCOL_VERSION]: new V03PushNotificationSerializer(),
  };
  private readonly current = new V1PushNotificationSerializer();
  private readonly retry: { attempts: number; backoffMs: number };

  constructor(
    @Inject(PUSH_CONFIG_STORE) private readonly configs: PushNotificationStore,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    const push = config.get('a2a', { infer: true }).push;
    this.retry = { attempts: push.max_attempts, backoffMs: push.backoff_ms };
  }

  async targets(taskId: string, context: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    return this.configs.loadWithMetadata
      ? this.configs.loadWithMetadata(taskId, context)
      : (await this.configs.load(taskId, context)).map((config) => ({ config, wireVersion: A2A_LEGACY_PROTOCOL_VERSION }));
  }

  async notify(targets: StoredPushNotificationConfig[], event: StreamResponse, task: Task): Promise<void> {
    for (const { config, wireVersion } of targets) {
      const { body, contentType } = (this.serializers[wireVersion] ?? this.current).serialize(event, task);
      const headers: Record<string, string> = { 'content-type': contentType };
      if (config.authentication?.scheme && config.authentication.credentials) {
        headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
      } else if (config.token) {
        headers[TOKEN_HEADER] = config.token;
      }
      await this.queue.enqueue(JobName.PushDelivery, { taskId: task.id, url: config.url, headers, body }, { retry: this.retry });
    }
  }
}
