/** Where tasks, push configs, live event streams and cancel signals live: Postgres and Redis, or memory. */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InMemoryPushNotificationStore } from '@a2a-js/sdk/server';
import type { SwitchboardConfig } from '../config/config.schema';
import type { StorageMode } from '../config/storage-mode';
import { PrismaService } from '../database/prisma.service';
import { RedisService } from '../redis/redis.service';
import { AnnouncingPushConfigStore } from './announcing-push-config-store';
import { CachedTaskStore } from './cached-task-store';
import { CANCEL_SIGNALS } from './cancel-signals.interface';
import { MemoryCancelSignals } from './memory-cancel-signals';
import { MemoryPushConfigChanges } from './memory-push-config-changes';
import { MemoryTaskEventStream } from './memory-task-event-stream';
import { MemoryTaskStore } from './memory-task-store';
import { PostgresPushConfigStore } from './postgres-push-config-store';
import { PostgresTaskStore } from './postgres-task-store';
import { PUSH_CONFIG_CHANGES, PushConfigChanges } from './push-config-changes.interface';
import { PUSH_CONFIG_STORE } from './push-config-store.token';
import { RedisCancelSignals } from './redis-cancel-signals';
import { RedisPushConfigChanges } from './redis-push-config-changes';
import { RedisTaskEventStream } from './redis-task-event-stream';
import { TASK_EVENT_STREAM } from './task-event-stream.interface';
import { TaskRetentionJob } from './task-retention.job';
import { TASK_STORE } from './task-store.interface';

type Config = ConfigService<SwitchboardConfig, true>;

const eventStreamMaxLen = (config: Config) => config.get('tasks', { infer: true }).event_stream_max_len;

function taskStores(mode: StorageMode): Provider[] {
  if (mode.tasks === 'memory') {
    return [
      { provide: TASK_STORE, useValue: new MemoryTaskStore() },
      {
        provide: PUSH_CONFIG_STORE,
        inject: [PUSH_CONFIG_CHANGES],
        useFactory: (changes: PushConfigChanges) => new AnnouncingPushConfigStore(new InMemoryPushNotificationStore(), changes),
      },
    ];
  }
  const taskStore: Provider =
    mode.shared === 'redis'
      ? {
          provide: TASK_STORE,
          inject: [PrismaService, RedisService],
          useFactory: (prisma: PrismaService, redis: RedisService) => new CachedTaskStore(new PostgresTaskStore(prisma), redis),
        }
      : { provide: TASK_STORE, useClass: PostgresTaskStore };
  return [
    taskStore,
    {
      provide: PUSH_CONFIG_STORE,
      inject: [PUSH_CONFIG_CHANGES, PrismaService],
      useFactory: (changes: PushConfigChanges, prisma: PrismaService) => new AnnouncingPushConfigStore(new PostgresPushConfigStore(prisma), changes),
    },
  ];
}

function sharedSignals(mode: StorageMode): Provider[] {
  if (mode.shared === 'memory') {
    return [
      { provide: TASK_EVENT_STREAM, inject: [ConfigService], useFactory: (config: Config) => new MemoryTaskEventStream(eventStreamMaxLen(config)) },
      { provide: CANCEL_SIGNALS, useValue: new MemoryCancelSignals() },
      { provide: PUSH_CONFIG_CHANGES, useValue: new MemoryPushConfigChanges() },
    ];
  }
  return [
    {
      provide: TASK_EVENT_STREAM,
      inject: [RedisService, ConfigService],
      useFactory: (redis: RedisService, config: Config) => new RedisTaskEventStream(redis, eventStreamMaxLen(config)),
    },
    { provide: CANCEL_SIGNALS, inject: [RedisService], useFactory: (redis: RedisService) => new RedisCancelSignals(redis) },
    { provide: PUSH_CONFIG_CHANGES, inject: [RedisService], useFactory: (redis: RedisService) => new RedisPushConfigChanges(redis) },
  ];
}

@Global()
@Module({})
export class TaskStoreModule {
  /** Needs DatabaseModule when mode.tasks is postgres and RedisModule when mode.shared is redis. */
  static forRoot(mode: StorageMode): DynamicModule {
    return {
      module: TaskStoreModule,
      providers: [...taskStores(mode), ...sharedSignals(mode), TaskRetentionJob],
      exports: [TASK_STORE, PUSH_CONFIG_STORE, PUSH_CONFIG_CHANGES, TASK_EVENT_STREAM, CANCEL_SIGNALS],
    };
  }
}
