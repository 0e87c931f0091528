/**
 * Push config changes over Redis pub/sub: an announcement from another replica reaches the watches
 * of its task, the subscriber's connection coming up for the first time is no change, and a
 * subscriber that could not connect (Redis down) makes every watch count as changed only until a
 * connection comes up again. On real Redis servers.
 */
import { RedisPushConfigChanges } from '../../../src/tasks/push/redis-push-config-changes';
import { eventually } from '../../support/eventually';
import { RedisProcess } from '../../support/redis-process';
import { testRedisPrefix } from '../../support/test-database';
import { connectRedis, RedisNamespace } from '../../support/store-connections';

describe('RedisPushConfigChanges', () => {
  const namespace = new RedisNamespace();
  afterAll(() => namespace.close());

  it('tells the watches of a task announced on another replica, and no other', async () => {
    const worker = new RedisPushConfigChanges(namespace.connect());
    const api = new RedisPushConfigChanges(namespace.connect());
    const [watched, other] = await Promise.all([worker.watch('t1'), worker.watch('t2')]);

    await api.announce('t1');
    await eventually(async () => watched.takeChanged(), Boolean);
    expect(other.takeChanged()).toBe(false);
    expect(watched.takeChanged()).toBe(false);
    watched.dispose();
    other.dispose();
  });

  describe('while Redis is down at its first watch', () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await RedisProcess.start();
    });
    afterAll(() => redis?.stop());

    it('counts every watch as changed until a subscriber connection comes up, then only announcements', async () => {
      const service = connectRedis(testRedisPrefix(), redis.url);
      const changes = new RedisPushConfigChanges(service);
      await redis.stop();
      await expect(changes.watch('t1')).rejects.toThrow();

      await redis.restart();
      const watch = await changes.watch('t1');
      // Announcements may have been missed while no subscriber was up: changed at first, then no more.
      await eventually(
        async () => watch.takeChanged(),
        (changed) => !changed,
      );
      watch.dispose();
      await service.onApplicationShutdown();
    });
  });
});
