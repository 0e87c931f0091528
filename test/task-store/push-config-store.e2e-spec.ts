import { InMemoryPushNotificationStore } from '@a2a-js/sdk/server';
import { PostgresPushConfigStore } from '../../src/task-store/postgres-push-config-store';
import { describePushConfigStoreContract } from './contracts/push-config-store.contract';
import { PostgresFixture } from './support/postgres-fixture';

describePushConfigStoreContract('SDK in-memory', async () => ({
  fresh: async () => new InMemoryPushNotificationStore(),
  close: async () => undefined,
}));

describePushConfigStoreContract('postgres', async () => {
  const postgres = await PostgresFixture.create();
  return {
    fresh: async () => {
      await postgres.truncate();
      return new PostgresPushConfigStore(postgres.prisma);
    },
    close: () => postgres.close(),
  };
});
