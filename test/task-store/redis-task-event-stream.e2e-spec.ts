import { StreamResponse } from '@a2a-js/sdk';
import type Redis from 'ioredis';
import { RedisTaskEventStream } from '../../src/task-store/redis-task-event-stream';
import { describeTaskEventStreamContract } from './contracts/task-event-stream.contract';
import { eventually } from '../support/eventually';
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

  it('reuses one connection for reads that stop early, are aborted, or end with the stream', async () => {
    const opened = jest.spyOn(redis, 'dedicatedConnection');
    await stream.publish('t1', [StreamResponse.fromJSON({})]);
    await stream.publish('t1', [StreamResponse.fromJSON({})]);

    for await (const _ of stream.read('t1', {})) break;
    const reads = opened.mock.results[0].value as Redis;
    const readsId = String(await reads.client('ID'));
    /** Resolves once Redis reports the read connection blocked in its XREAD. */
    const blockedInRead = () =>
      eventually(
        async () => String(await redis.client.client('LIST', 'ID', readsId)),
        (client) => / flags=b /.test(client) && / cmd=xread /.test(client),
      );

    // A blocked read (nothing on t2) ends as soon as it is aborted, well before its 5 s block runs out.
    const controller = new AbortController();
    const aborted = (async () => {
      for await (const _ of stream.read('t2', { signal: controller.signal }));
    })();
    await blockedInRead();
    const abortedAt = Date.now();
    controller.abort();
    await aborted;
    expect(Date.now() - abortedAt).toBeLessThan(1_000);

    const closed = (async () => {
      for await (const _ of stream.read('t1', {}));
    })();
    await blockedInRead();
    await stream.publish('t1', [], { close: true });
    await closed;

    expect(opened).toHaveBeenCalledTimes(1);
    expect(reads.status).toBe('ready');
    opened.mockRestore();
  });

  it('sets an expiry on a stream, shortened when it closes', async () => {
    await stream.publish('t3', [StreamResponse.fromJSON({})]);
    expect(await redis.client.ttl(redis.key('task-events', 't3'))).toBeGreaterThan(3_600);
    await stream.publish('t3', [], { close: true });
    const ttl = await redis.client.ttl(redis.key('task-events', 't3'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3_600);
  });
});
