import { RedisCancelSignals } from '../../../src/tasks/cancel/redis-cancel-signals';
import { describeCancelSignalsContract } from './cancel-signals.contract';
import { RedisNamespace } from '../../support/store-connections';

describeCancelSignalsContract('redis', async () => {
  const namespace = new RedisNamespace();
  return {
    requester: new RedisCancelSignals(namespace.connect()),
    watcher: new RedisCancelSignals(namespace.connect()),
    close: () => namespace.close(),
  };
});

describe('RedisCancelSignals subscriber', () => {
  const namespace = new RedisNamespace();
  afterAll(() => namespace.close());

  it('shares one subscriber connection among all watches of a process', async () => {
    const redis = namespace.connect();
    const opened = jest.spyOn(redis, 'dedicatedConnection');
    const signals = new RedisCancelSignals(redis);
    const watches = await Promise.all(['a', 'b', 'c', 'a'].map((id) => signals.watch(id)));
    expect(opened).toHaveBeenCalledTimes(1);
    watches.forEach((watch) => watch.dispose());
  });

  it('keeps cancel requests under the configured key prefix, with an expiry', async () => {
    const redis = namespace.connect();
    await new RedisCancelSignals(redis).request('t1');
    const ttl = await redis.client.ttl(`${namespace.prefix}cancel:t1`);
    expect(ttl).toBeGreaterThan(0);
  });
});
