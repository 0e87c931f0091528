import { StreamResponse } from '@a2a-js/sdk';
import type Redis from 'ioredis';
import { RedisTaskEventStream } from '../../src/task-store/redis-task-event-stream';
import { describeTaskEventStreamContract } from './contracts/task-event-stream.contract';
import { sleep } from './support/fixtures';
import { RedisNamespace } from './support/services';

describeTaskEventStreamContract('redis', async () => {
  const namespace = new RedisNamespace();
  return {
    stream: (maxLen = 1_000) => new RedisTaskEventStream(namespace.connect(), maxLen),
    close: () => namespace.close(),
  };
});

describe('RedisTaskEventStream connections', () => {
  const namespace = new RedisNamespace();
  const redis = namespace.connect();
  const stream = new RedisTaskEventStream(redis, 1_000);
  afterAll(() => namespace.close());

  async function expectClosed(connection: Redis): Promise<void> {
    for (let waited = 0; connection.status !== 'end' && waited < 1_000; waited += 10) await sleep(10);
    expect(connection.status).toBe('end');
  }

  /** Starts a read and returns the dedicated connection it opened. */
  function readerConnection(read: () => Promise<unknown>): { connection: () => Redis; done: Promise<unknown> } {
    const opened = jest.spyOn(redis, 'dedicatedConnection');
    const done = read();
    return {
      connection: () => {
        const connection = opened.mock.results[0].value as Redis;
        opened.mockRestore();
        return connection;
      },
      done,
    };
  }

  it('closes its connection when the reader stops early, is aborted, or the stream closes', async () => {
    await stream.publish('t1', StreamResponse.fromJSON({}));
    await stream.publish('t1', StreamResponse.fromJSON({}));

    const early = readerConnection(async () => {
      for await (const _ of stream.read('t1', {})) break;
    });
    await early.done;
    await expectClosed(early.connection());

    const controller = new AbortController();
    const aborted = readerConnection(async () => {
      for await (const _ of stream.read('t2', { signal: controller.signal }));
    });
    await sleep(100);
    controller.abort();
    await aborted.done;
    await expectClosed(aborted.connection());

    const closed = readerConnection(async () => {
      for await (const _ of stream.read('t1', {}));
    });
    await sleep(100);
    await stream.close('t1');
    await closed.done;
    await expectClosed(closed.connection());
  });

  it('sets an expiry on a stream, shortened when it closes', async () => {
    await stream.publish('t3', StreamResponse.fromJSON({}));
    expect(await redis.client.ttl(redis.key('task-events', 't3'))).toBeGreaterThan(3_600);
    await stream.close('t3');
    const ttl = await redis.client.ttl(redis.key('task-events', 't3'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_600);
  });
});
