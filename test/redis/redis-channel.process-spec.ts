/**
 * A task channel whose subscriber connection was lost tells its listener it is connected again only
 * once it is subscribed again: what is published from then on reaches it, so a listener that looks
 * for what it missed (cancel signals) leaves no gap. On a Redis server of the test's own, whose
 * subscriber connections the test kills.
 */
import { RedisChannel } from '../../src/redis/redis-channel';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import { testRedisPrefix } from '../support/test-database';
import { connectRedis } from '../support/store-connections';

describe('RedisChannel', () => {
  let redis: RedisProcess;

  beforeAll(async () => {
    redis = await RedisProcess.start();
  });

  afterAll(() => redis?.stop());

  it('is subscribed again when it tells its listener it is connected again', async () => {
    const prefix = testRedisPrefix();
    const [subscriberSide, publisherSide] = [connectRedis(prefix, redis.url), connectRedis(prefix, redis.url)];
    const received: string[] = [];
    const channel: RedisChannel = new RedisChannel(subscriberSide, 'test-channel', {
      message: (taskId) => received.push(taskId),
      // Published the moment the listener hears it, from a connection that stayed up.
      connected: () => void publisherSide.client.publish(channel.key, 'published when connected again'),
    });
    try {
      await channel.subscribed();
      await publisherSide.client.client('KILL', 'TYPE', 'pubsub');
      await eventually(
        async () => [...received],
        (messages) => messages.includes('published when connected again'),
        3_000,
      );
    } finally {
      await Promise.all([subscriberSide.onApplicationShutdown(), publisherSide.onApplicationShutdown()]);
    }
  });
});
