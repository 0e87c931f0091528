import { ConfigModule } from '@nestjs/config';
import { Test, type TestingModule } from '@nestjs/testing';
import { configSchema } from '../../src/config/config.schema';
import { storageMode } from '../../src/config/storage-mode';
import { DatabaseModule } from '../../src/database/database.module';
import { RedisModule } from '../../src/redis/redis.module';
import { CachedTaskStore } from '../../src/task-store/cached-task-store';
import { AnnouncingPushConfigStore } from '../../src/tasks/push/announcing-push-config-store';
import { CANCEL_SIGNALS } from '../../src/tasks/cancel/cancel-signals.interface';
import { MemoryCancelSignals } from '../../src/tasks/cancel/memory-cancel-signals';
import { MemoryPushConfigChanges } from '../../src/tasks/push/memory-push-config-changes';
import { PUSH_CONFIG_CHANGES } from '../../src/tasks/push/push-config-changes.interface';
import { MemoryTaskEventStream } from '../../src/tasks/events/memory-task-event-stream';
import { MemoryTaskStore } from '../../src/task-store/memory-task-store';
import { PostgresTaskStore } from '../../src/task-store/postgres-task-store';
import { RedisCancelSignals } from '../../src/tasks/cancel/redis-cancel-signals';
import { RedisPushConfigChanges } from '../../src/tasks/push/redis-push-config-changes';
import { RedisTaskEventStream } from '../../src/tasks/events/redis-task-event-stream';
import { TASK_EVENT_STREAM } from '../../src/tasks/events/task-event-stream.interface';
import { TaskRetentionJob } from '../../src/tasks/lifecycle/task-retention.job';
import { TASK_STORE, type TaskStore } from '../../src/task-store/task-store.interface';
import { TaskStoreModule } from '../../src/task-store/task-store.module';
import { MetricsModule } from '../../src/metrics/metrics.module';
import { QueueModule } from '../../src/queue/queue.module';
import { OutboundModule } from '../../src/security/outbound.module';
import { PUSH_CONFIGS } from '../../src/tasks/push/push-configs.token';
import { TasksModule } from '../../src/tasks/tasks.module';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';
import { callContext, makeTask } from './support/fixtures';

describe('TaskStoreModule', () => {
  let database: TestDatabase;
  const prefix = testRedisPrefix();

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    await deleteRedisKeys(prefix);
  });

  async function compile(urls: { database?: string; redis?: string }): Promise<TestingModule> {
    const config = configSchema.parse({
      database: { url: urls.database },
      redis: { url: urls.redis, key_prefix: prefix },
    });
    const mode = storageMode(config);
    return Test.createTestingModule({
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        RedisModule.forRoot(mode.shared === 'redis'),
        DatabaseModule.forRoot(mode.tasks === 'postgres'),
        TaskStoreModule.forRoot(mode),
        QueueModule.forRoot(mode, false, config.queue),
        MetricsModule,
        OutboundModule,
        TasksModule.forRoot(mode),
      ],
    }).compile();
  }

  const cases = [
    {
      name: 'embedded',
      urls: {},
      expected: [
        MemoryTaskStore,
        AnnouncingPushConfigStore,
        MemoryTaskEventStream,
        MemoryCancelSignals,
        MemoryPushConfigChanges,
      ],
    },
    {
      name: 'Postgres only',
      urls: { database: 'db' },
      expected: [
        PostgresTaskStore,
        AnnouncingPushConfigStore,
        MemoryTaskEventStream,
        MemoryCancelSignals,
        MemoryPushConfigChanges,
      ],
    },
    {
      name: 'Redis only',
      urls: { redis: 'redis' },
      expected: [
        MemoryTaskStore,
        AnnouncingPushConfigStore,
        RedisTaskEventStream,
        RedisCancelSignals,
        RedisPushConfigChanges,
      ],
    },
    {
      name: 'Postgres and Redis',
      urls: { database: 'db', redis: 'redis' },
      expected: [
        CachedTaskStore,
        AnnouncingPushConfigStore,
        RedisTaskEventStream,
        RedisCancelSignals,
        RedisPushConfigChanges,
      ],
    },
  ];

  it.each(cases)('binds every token for $name and serves tasks through it', async ({ urls, expected }) => {
    const module = await compile({
      database: urls.database && database.url,
      redis: urls.redis && testRedisUrl(),
    });
    try {
      const bound = [TASK_STORE, PUSH_CONFIGS, TASK_EVENT_STREAM, CANCEL_SIGNALS, PUSH_CONFIG_CHANGES].map((token) =>
        module.get(token),
      );
      bound.forEach((instance, i) => expect(instance).toBeInstanceOf(expected[i]));
      expect(module.get(TaskRetentionJob)).toBeInstanceOf(TaskRetentionJob);

      const store = module.get<TaskStore>(TASK_STORE);
      await store.save(makeTask(`wired-${expected[0].name}`), callContext());
      expect(await store.load(`wired-${expected[0].name}`, callContext())).toBeDefined();
    } finally {
      await module.close();
    }
  });
});
