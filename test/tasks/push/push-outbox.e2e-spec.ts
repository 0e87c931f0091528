import { MemoryPushOutbox } from '../../../src/tasks/push/memory-push-outbox';
import { RedisPushOutbox } from '../../../src/tasks/push/redis-push-outbox';
import { describePushOutboxContract } from './push-outbox.contract';
import { RedisNamespace } from '../../support/store-connections';

describePushOutboxContract('memory', async () => {
  const outbox = new MemoryPushOutbox();
  return { first: outbox, second: outbox, close: async () => undefined };
});

describePushOutboxContract('redis', async () => {
  const namespace = new RedisNamespace();
  return {
    first: new RedisPushOutbox(namespace.connect()),
    second: new RedisPushOutbox(namespace.connect()),
    close: () => namespace.close(),
  };
});
