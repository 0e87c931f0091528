import { StreamResponse, Task } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { V03PushNotificationSerializer } from '@a2a-js/sdk/compat/v0_3/server';
import {
  PushNotificationSerializer,
  PushNotificationStore,
  ServerCallContext,
  V1PushNotificationSerializer,
} from '@a2a-js/sdk/server';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { EnqueueOptions, JOB_QUEUE, JobQueue } from '../../queue/job-queue.interface';
import { pushJobRetry } from './push-delivery.job';
import { JobName } from '../../queue/queue.constants';
import { PUSH_CONFIG_CHANGES, PushConfigChanges } from './push-config-changes.interface';
import { PUSH_CONFIGS } from './push-configs.token';
import { callerScopeOf } from '../caller-scope';
import { PUSH_OUTBOX, PushOutbox } from './push-outbox.interface';
import { PushTargets, TaskWebhooks, TurnWebhooks } from './turn-webhooks';

/**
 * Turns a task's events into webhook deliveries: the body in the wire version the client registered
 * its config over (the SDK's serializers), added in order to each webhook's outbox, which the
 * push-delivery job delivers one at a time, with the URL and credentials from the config.
 */
@Injectable()
export class PushNotifier {
  private readonly serializers: Record<string, PushNotificationSerializer> = {
    [A2A_LEGACY_PROTOCOL_VERSION]: new V03PushNotificationSerializer(),
  };
  private readonly current = new V1PushNotificationSerializer();
  private readonly retry: EnqueueOptions['retry'];

  constructor(
    @Inject(PUSH_CONFIGS) private readonly configs: PushNotificationStore,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(PUSH_CONFIG_CHANGES) private readonly changes: PushConfigChanges,
    @Inject(PUSH_OUTBOX) private readonly outbox: PushOutbox,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.retry = pushJobRetry(config.get('a2a', { infer: true }).push);
  }

  private async targets(taskId: string, context: ServerCallContext): Promise<PushTargets> {
    const configs = this.configs.loadWithMetadata
      ? await this.configs.loadWithMetadata(taskId, context)
      : (await this.configs.load(taskId, context)).map((config) => ({
          config,
          wireVersion: A2A_LEGACY_PROTOCOL_VERSION,
        }));
    return { caller: callerScopeOf(context), configs };
  }

  /** Reads the task's webhooks, then queues a delivery of each event to each. */
  async notifyAll(taskId: string, context: ServerCallContext, events: StreamResponse[], task: Task): Promise<void> {
    await this.deliver(await this.targets(taskId, context), events, task);
  }

  /** The task's webhooks read for each batch of events: for one-off events (a cancel, a failure), which need no watch. */
  forEvents(taskId: string, context: ServerCallContext): TaskWebhooks {
    return { notify: (events, task) => this.notifyAll(taskId, context, events, task), close: () => undefined };
  }

  /** The webhooks of a turn's task, for notifying its batches of events without reading them for each. */
  forTurn(taskId: string, context: ServerCallContext): TurnWebhooks {
    return new TurnWebhooks(
      taskId,
      this.changes,
      () => this.targets(taskId, context),
      (targets, events, task) => this.deliver(targets, events, task),
    );
  }

  /**
   * The webhooks of a turn whose task has none yet, and can get none before the turn's first event
   * or `idUnknownUntil` (ms since the epoch; no client knows its id before): not read at all unless
   * one is set meanwhile. The watch for that begins before this resolves; begun past
   * `idUnknownUntil`, they are read.
   */
  async forTurnWithoutWebhooks(
    taskId: string,
    context: ServerCallContext,
    idUnknownUntil: number,
  ): Promise<TaskWebhooks> {
    const webhooks = this.forTurn(taskId, context);
    await webhooks.startWith({ caller: callerScopeOf(context), configs: [] }, idUnknownUntil);
    return webhooks;
  }

  /** Adds the events to each webhook's outbox, in order, and has a worker deliver them (PushDeliveryJob). */
  private async deliver({ caller, configs }: PushTargets, events: StreamResponse[], task: Task): Promise<void> {
    for (const { config, wireVersion } of configs) {
      const serializer = this.serializers[wireVersion] ?? this.current;
      await this.outbox.append(
        task.id,
        config.id,
        events.map((event) => serializer.serialize(event, task)),
      );
      await this.queue.enqueue(
        JobName.PushDelivery,
        { taskId: task.id, configId: config.id, caller },
        { retry: this.retry },
      );
    }
  }
}
