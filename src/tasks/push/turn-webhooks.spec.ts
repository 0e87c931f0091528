import type { StreamResponse, Task } from '@a2a-js/sdk';
import { MemoryPushConfigChanges } from './memory-push-config-changes';
import { type PushTargets, TurnWebhooks } from './turn-webhooks';

const task = { id: 't1' } as Task;
const events: StreamResponse[] = [];
const caller = { tenant: '', userName: 'alice', authenticated: true };
const none: PushTargets = { caller, configs: [] };
const stored: PushTargets = {
  caller,
  configs: [
    {
      config: {
        tenant: '',
        id: 'c1',
        taskId: 't1',
        url: 'https://hooks.example/1',
        token: '',
        authentication: undefined,
      },
      wireVersion: '1.0',
    },
  ],
};

/** A turn's webhooks whose store holds `stored`, counting its reads and recording what each batch was delivered to. */
function turnWebhooks(changes = new MemoryPushConfigChanges()) {
  const reads: PushTargets[] = [];
  const delivered: PushTargets[] = [];
  const read = async () => (reads.push(stored), stored);
  const webhooks = new TurnWebhooks('t1', changes, read, async (targets) => void delivered.push(targets));
  return { webhooks, changes, reads, delivered };
}

describe('TurnWebhooks', () => {
  it('takes the webhooks it is given without reading them while the task id is unknown to clients', async () => {
    const { webhooks, reads, delivered } = turnWebhooks();
    await webhooks.startWith(none, Date.now() + 60_000);
    await webhooks.notify(events, task);
    expect(reads).toHaveLength(0);
    expect(delivered).toEqual([none]);
  });

  it('reads them once a change is announced, even while the task id is unknown to clients', async () => {
    const { webhooks, changes, delivered } = turnWebhooks();
    await webhooks.startWith(none, Date.now() + 60_000);
    await changes.announce('t1');
    await webhooks.notify(events, task);
    expect(delivered).toEqual([stored]);
  });

  it('reads them when the watch begins once clients may know the task id', async () => {
    const { webhooks, reads, delivered } = turnWebhooks();
    await webhooks.startWith(none, Date.now() - 1);
    await webhooks.notify(events, task);
    await webhooks.notify(events, task);
    expect(reads).toHaveLength(1);
    expect(delivered).toEqual([stored, stored]);
  });
});
