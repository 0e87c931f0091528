/** Where tasks, push configs, live event streams and cancel signals live: Postgres and Redis, or memory. */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InMemoryPushNotificationStore } from '@a2a-js/sdk/server';
import type { SwitchboardConfig } from '../config/config.schema';
import type { StorageMode } from '../config/storage-mode';
import { PrismaService } from '../database/prisma.service';
import { RedisService } from '../redis/redis.service';
import { CachedTaskStore } from './cached-task-store';
import { CANCEL_SIGNALS } from './cancel-signals.interface';
import { MemoryCancelSignals } from './memory-cancel-signals';
import { MemoryTaskEventStream } from './memory-task-event-stream';
import { MemoryTaskStore } from './memory-task-store';
import { PostgresPushConfigStore } from './postgres-push-config-store';
import { PostgresTaskStore } from './postgres-task-store';
import { PUSH_CONFIG_STORE } from './push-config-store.token';
import { RedisCancelSignals } from './redis-cancel-signals';
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
      { provide: PUSH_CONFIG_STORE, useValue: new InMemoryPushNotificationStore() },
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
  return [taskStore, { provide: PUSH_CONFIG_STORE, useClass: PostgresPushConfigStore }];
}

function sharedSignals(mode: StorageMode): Provider[] {
  if (mode.shared === 'memory') {
    return [
      { provide: TASK_EVENT_STREAM, inject: [ConfigService], useFactory: (config: Config) => new MemoryTaskEventStream(eventStreamMaxLen(config)) },
      { provide: CANCEL_SIGNALS, useValue: new MemoryCancelSignals() },
    ];
  }
  return [
    {
      provide: TASK_EVENT_STREAM,
      inject: [RedisService, ConfigService],
      useFactory: (redis: RedisService, config: Config) => new RedisTaskEventStream(redis, eventStreamMaxLen(config)),
    },
    { provide: CANCEL_SIGNALS, inject: [RedisService], useFactory: (redis: RedisService) => new RedisCancelSignals(redis) },
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
      exports: [TASK_STORE, PUSH_CONFIG_STORE, TASK_EVENT_STREAM, CANCEL_SIGNALS],
    };
  }
}
