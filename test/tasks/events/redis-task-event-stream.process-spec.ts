import { StreamResponse } from '@a2a-js/sdk';
import Redis from 'ioredis';
import { RedisTaskEventStream } from '../../../src/tasks/events/redis-task-event-stream';
import { describeTaskEventStreamContract } from './task-event-stream.contract';
import { eventually } from '../../support/eventually';
import { RedisProcess } from '../../support/redis-process';
import { testRedisPrefix } from '../../support/test-database';
import { connectRedis, RedisNamespace } from '../../support/store-connections';

describeTaskEventStreamContract('redis', async () => {
  const namespace = new RedisNamespace();
  return {
    stream: (maxLen = 1_000) => new RedisTaskEventStream(namespace.connect(), maxLen),
    close: () => namespace.close(),
  };
});

describe('RedisTaskEventStream expiry', () => {
  const namespace = new RedisNamespace();
  const redis = namespace.connect();
  const stream = new RedisTaskEventStream(redis, 1_000);
  afterAll(() => namespace.close());

  it('sets an expiry on a stream, shortened when it closes', async () => {
    await stream.publish('t3', [StreamResponse.fromJSON({})]);
    expect(await redis.client.ttl(redis.key('task-events', 't3'))).toBeGreaterThan(3_600);
    await stream.publish('t3', [], { close: true });
    const ttl = await redis.client.ttl(redis.key('task-events', 't3'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_600);
  });
});

describe('RedisTaskEventStream reads at scale', () => {
  const READS = 2_500;
  let server: RedisProcess;

  beforeAll(async () => {
    server = await RedisProcess.start();
  });
  afterAll(() => server?.stop());

  /** The connections open to the test's own Redis, by name. */
  async function clientsNamed(name: string): Promise<number> {
    const admin = new Redis(server.url);
    try {
      return ((await admin.client('LIST')) as string).split('\n').filter((line) => line.includes(` name=${name} `))
        .length;
    } finally {
      admin.disconnect();
    }
  }

  it('follows thousands of streams at once on a few connections, each read getting its own events', async () => {
    const redis = connectRedis(testRedisPrefix(), server.url);
    const stream = new RedisTaskEventStream(redis, 1_000);
    try {
      const taskIds = Array.from({ length: READS }, (_, i) => `task-${i}`);
      const reads = taskIds.map(async (taskId) => {
        for await (const { event } of stream.read(taskId, {}))
          return event.payload?.$case === 'statusUpdate' ? event.payload.value.taskId : undefined;
      });
      await eventually(
        async () => redis.streams.waiting,
        (waiting) => waiting === READS,
        30_000,
      );
      for (const taskId of taskIds)
        void stream.publish(taskId, [
          StreamResponse.fromJSON({
            statusUpdate: { taskId, contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
          }),
        ]);
      expect(await Promise.all(reads)).toEqual(taskIds);
      // At most 1,000 streams per reader connection, plus the command connection.
      const readers = await clientsNamed('switchboard:blocking-reads');
      expect(readers).toBeGreaterThanOrEqual(1);
      expect(readers).toBeLessThanOrEqual(Math.ceil(READS / 1_000));
      expect(await clientsNamed('switchboard:commands')).toBe(1);
    } finally {
      await redis.onApplicationShutdown();
    }
  });

  it('goes on when its reader connection drops before the stream has any entry', async () => {
    const redis = connectRedis(testRedisPrefix(), server.url);
    const stream = new RedisTaskEventStream(redis, 1_000);
    const admin = new Redis(server.url);
    try {
      const read = (async () => {
        for await (const { event } of stream.read('fresh', {})) return event.payload?.$case;
      })();
      await eventually(
        async () => redis.streams.waiting,
        (waiting) => waiting === 1,
      );
      const readerIds = ((await admin.client('LIST')) as string)
        .split('\n')
        .filter((line) => line.includes(' name=switchboard:blocking-reads '))
        .map((line) => /^id=(\d+) /.exec(line)![1]);
      expect(readerIds).toHaveLength(1);
      await admin.client('KILL', 'ID', readerIds[0]);
      await stream.publish('fresh', [
        StreamResponse.fromJSON({
          statusUpdate: { taskId: 'fresh', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } },
        }),
      ]);
      expect(await read).toBe('statusUpdate');
    } finally {
      admin.disconnect();
      await redis.onApplicationShutdown();
    }
  });
});
