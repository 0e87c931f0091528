import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { PushNotificationStore } from '@a2a-js/sdk/server';
import { callContext } from '../support/fixtures';

export interface PushConfigStoreFixture {
  /** An empty store, for one test. */
  fresh(): Promise<PushNotificationStore>;
  close(): Promise<void>;
}

function config(id: string, url = `https://hooks.example.com/${id || 'new'}`): TaskPushNotificationConfig {
  return TaskPushNotificationConfig.fromJSON({
    id,
    taskId: 't1',
    url,
    token: 'secret-token',
    authentication: { scheme: 'Bearer', credentials: 'abc' },
  });
}

const alice = callContext('alice', 'acme', '1.0');
const aliceLegacy = callContext('alice', 'acme');
const bob = callContext('bob', 'acme', '1.0');
const aliceElsewhere = callContext('alice', 'globex', '1.0');

/** The SDK's PushNotificationStore semantics, as its in-memory store defines them. */
export function describePushConfigStoreContract(name: string, fixture: () => Promise<PushConfigStoreFixture>): void {
  describe(`${name} PushNotificationStore contract`, () => {
    let backing: PushConfigStoreFixture;
    let store: PushNotificationStore;

    beforeAll(async () => {
      backing = await fixture();
    });
    afterAll(() => backing?.close());
    beforeEach(async () => {
      store = await backing.fresh();
    });

    it('stores configs for a task that has no stored snapshot yet, as SendMessage does', async () => {
      await store.save('t1', alice, config('hook-1'));
      expect(await store.load('t1', alice)).toEqual([config('hook-1')]);
    });

    it('assigns an id in place when the config has none', async () => {
      const created = config('');
      await store.save('t1', alice, created);
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await store.load('t1', alice)).toEqual([created]);
    });

    it('records the wire version each config was registered over', async () => {
      await store.save('t1', alice, config('v1'));
      await store.save('t1', aliceLegacy, config('v03'));
      expect(await store.loadWithMetadata!('t1', alice)).toEqual([
        { config: config('v1'), wireVersion: '1.0' },
        { config: config('v03'), wireVersion: '0.3' },
      ]);
    });

    it('replaces a config saved again under its id and moves it last', async () => {
      await store.save('t1', alice, config('a'));
      await store.save('t1', alice, config('b'));
      await store.save('t1', alice, config('a', 'https://hooks.example.com/changed'));
      expect(await store.load('t1', alice)).toEqual([config('b'), config('a', 'https://hooks.example.com/changed')]);
    });

    it('keeps each tenant and owner to its own configs', async () => {
      await store.save('t1', alice, config('mine'));
      await store.save('t1', bob, config('mine', 'https://bob.example.com'));
      expect(await store.load('t1', aliceElsewhere)).toEqual([]);
      expect(await store.load('t1', bob)).toEqual([config('mine', 'https://bob.example.com')]);
      await store.delete('t1', bob, 'mine');
      expect(await store.load('t1', alice)).toEqual([config('mine')]);
    });

    it('deletes one config by id, or the one named after the task when no id is given', async () => {
      await store.save('t1', alice, config('t1'));
      await store.save('t1', alice, config('other'));
      await store.delete('t1', alice, 'missing');
      expect(await store.load('t1', alice)).toHaveLength(2);
      await store.delete('t1', alice);
      expect(await store.load('t1', alice)).toEqual([config('other')]);
      await store.delete('t1', alice, 'other');
      expect(await store.load('t1', alice)).toEqual([]);
    });
  });
}
