/** Where tasks and their webhook configs are kept: Postgres (with Redis's snapshot cache), or memory. Persistence only; src/tasks owns every write. */
import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { InMemoryPushNotificationStore } from '@a2a-js/sdk/server';
import type { StorageMode } from '../config/storage-mode';
import { PrismaService } from '../database/prisma.service';
import { RedisService } from '../redis/redis.service';
import { CachedTaskStore } from './cached-task-store';
import { MemoryTaskStore } from './memory-task-store';
import { PostgresPushConfigStore } from './postgres-push-config-store';
import { PostgresTaskStore } from './postgres-task-store';
import { PUSH_CONFIG_STORE } from './push-config-store.token';
import { TASK_STORE } from './task-store.interface';

function taskStore(mode: StorageMode): Provider {
  if (mode.tasks === 'memory') return { provide: TASK_STORE, useValue: new MemoryTaskStore() };
  if (mode.shared === 'memory') return { provide: TASK_STORE, useClass: PostgresTaskStore };
  return {
    provide: TASK_STORE,
    inject: [PrismaService, RedisService],
    useFactory: (prisma: PrismaService, redis: RedisService) =>
      new CachedTaskStore(new PostgresTaskStore(prisma), redis),
  };
}

function pushConfigStore(mode: StorageMode): Provider {
  return mode.tasks === 'memory'
    ? { provide: PUSH_CONFIG_STORE, useValue: new InMemoryPushNotificationStore() }
    : { provide: PUSH_CONFIG_STORE, useClass: PostgresPushConfigStore };
}

@Global()
@Module({})
export class TaskStoreModule {
  /** Needs DatabaseModule when mode.tasks is postgres and RedisModule when mode.shared is redis. */
  static forRoot(mode: StorageMode): DynamicModule {
    return {
      module: TaskStoreModule,
      providers: [taskStore(mode), pushConfigStore(mode)],
      exports: [TASK_STORE, PUSH_CONFIG_STORE],
    };
  }
}
