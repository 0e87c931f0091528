/**
 * The one home of task state: the lifecycle that alone writes it (submit, record a turn, cancel,
 * fail, sweep, retention), the live signals around a task (event streams, the task changes feed,
 * cancel signals, webhook config changes), its activity (tool calls, delegations, deliveries) and webhook delivery (outboxes, in order per task and webhook). Exports reads (TaskView), the lifecycle's operations and
 * the signals; the stores it writes through (task-store) stay behind it.
 */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { PushNotificationStore } from '@a2a-js/sdk/server';
import type { SwitchboardConfig } from '../config/config.schema';
import type { StorageMode } from '../config/storage-mode';
import { RedisService } from '../redis/redis.service';
import { PUSH_CONFIG_STORE } from '../task-store/push-config-store.token';
import { MemoryTaskActivityStore } from './activity/memory-task-activity.store';
import { PostgresTaskActivityStore } from './activity/postgres-task-activity.store';
import { TASK_ACTIVITY_STORE } from './activity/task-activity.interface';
import { RecordedActivity, TASK_ACTIVITY_FEED, TaskActivity } from './activity/task-activity.service';
import { CANCEL_SIGNALS } from './cancel/cancel-signals.interface';
import { MemoryCancelSignals } from './cancel/memory-cancel-signals';
import { RedisCancelSignals } from './cancel/redis-cancel-signals';
import { MemoryLiveChannel, RedisLiveChannel } from './events/live-channel';
import { MemoryTaskEventStream } from './events/memory-task-event-stream';
import { RedisTaskEventStream } from './events/redis-task-event-stream';
import { TASK_CHANGES, TASK_CHANGES_CHANNEL, TaskChange, TaskChanges } from './events/task-change';
import { TASK_EVENT_STREAM } from './events/task-event-stream.interface';
import { OrphanedTaskSweepJob } from './lifecycle/orphaned-task-sweep.job';
import { TaskCanceller } from './lifecycle/task-canceller.service';
import { TaskLifecycle } from './lifecycle/task-lifecycle.service';
import { TaskRetentionJob } from './lifecycle/task-retention.job';
import { AnnouncingPushConfigStore } from './push/announcing-push-config-store';
import { MemoryPushConfigChanges } from './push/memory-push-config-changes';
import { PUSH_CONFIG_CHANGES, PushConfigChanges } from './push/push-config-changes.interface';
import { PUSH_CONFIGS } from './push/push-configs.token';
import { PushDeliveryJob } from './push/push-delivery.job';
import { PushNotifier } from './push/push-notifier.service';
import { MemoryPushOutbox } from './push/memory-push-outbox';
import { PUSH_OUTBOX } from './push/push-outbox.interface';
import { RedisPushOutbox } from './push/redis-push-outbox';
import { RedisPushConfigChanges } from './push/redis-push-config-changes';
import { TaskView } from './task-view';

type Config = ConfigService<SwitchboardConfig, true>;

const eventStreamMaxLen = (config: Config) => config.get('tasks', { infer: true }).event_stream_max_len;

function signals(mode: StorageMode): Provider[] {
  if (mode.shared === 'memory') {
    return [
      { provide: TASK_CHANGES, useValue: new MemoryLiveChannel<TaskChange>() },
      { provide: TASK_ACTIVITY_FEED, useValue: new MemoryLiveChannel<RecordedActivity>() },
      {
        provide: TASK_EVENT_STREAM,
        inject: [ConfigService, TASK_CHANGES],
        useFactory: (config: Config, changes: TaskChanges) =>
          new MemoryTaskEventStream(eventStreamMaxLen(config), changes),
      },
      { provide: CANCEL_SIGNALS, useValue: new MemoryCancelSignals() },
      { provide: PUSH_CONFIG_CHANGES, useValue: new MemoryPushConfigChanges() },
      { provide: PUSH_OUTBOX, useValue: new MemoryPushOutbox() },
    ];
  }
  return [
    {
      provide: TASK_CHANGES,
      inject: [RedisService],
      useFactory: (redis: RedisService) => new RedisLiveChannel<TaskChange>(redis, TASK_CHANGES_CHANNEL),
    },
    {
      provide: TASK_ACTIVITY_FEED,
      inject: [RedisService],
      useFactory: (redis: RedisService) => new RedisLiveChannel<RecordedActivity>(redis, 'task-activity'),
    },
    {
      provide: TASK_EVENT_STREAM,
      inject: [RedisService, ConfigService],
      useFactory: (redis: RedisService, config: Config) => new RedisTaskEventStream(redis, eventStreamMaxLen(config)),
    },
    {
      provide: CANCEL_SIGNALS,
      inject: [RedisService],
      useFactory: (redis: RedisService) => new RedisCancelSignals(redis),
    },
    {
      provide: PUSH_CONFIG_CHANGES,
      inject: [RedisService],
      useFactory: (redis: RedisService) => new RedisPushConfigChanges(redis),
    },
    { provide: PUSH_OUTBOX, inject: [RedisService], useFactory: (redis: RedisService) => new RedisPushOutbox(redis) },
  ];
}

function activityStore(mode: StorageMode): Provider {
  return mode.tasks === 'memory'
    ? { provide: TASK_ACTIVITY_STORE, useValue: new MemoryTaskActivityStore() }
    : { provide: TASK_ACTIVITY_STORE, useClass: PostgresTaskActivityStore };
}

const pushConfigs: Provider = {
  provide: PUSH_CONFIGS,
  inject: [PUSH_CONFIG_STORE, PUSH_CONFIG_CHANGES],
  useFactory: (store: PushNotificationStore, changes: PushConfigChanges) =>
    new AnnouncingPushConfigStore(store, changes),
};

@Global()
@Module({})
export class TasksModule {
  /** Needs TaskStoreModule, QueueModule, OutboundModule and MetricsModule, and RedisModule when mode.shared is redis. */
  static forRoot(mode: StorageMode): DynamicModule {
    return {
      module: TasksModule,
      providers: [
        ...signals(mode),
        activityStore(mode),
        TaskActivity,
        pushConfigs,
        TaskView,
        TaskLifecycle,
        TaskCanceller,
        PushNotifier,
        PushDeliveryJob,
        OrphanedTaskSweepJob,
        TaskRetentionJob,
      ],
      exports: [TaskView, TaskLifecycle, TaskCanceller, TaskActivity, TASK_CHANGES, PUSH_CONFIGS, CANCEL_SIGNALS],
    };
  }
}
