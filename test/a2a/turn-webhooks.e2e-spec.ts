/**
 * A turn reads its task's webhooks once, not for every batch of events, and again only when one is
 * set mid-turn (announced through Redis, as from another replica): on Postgres and Redis, through
 * the SDK client, with webhooks that receive for real.
 */
import { SendMessageConfiguration } from '@a2a-js/sdk';
import type { PushNotificationStore } from '@a2a-js/sdk/server';
import { PUSH_CONFIG_STORE } from '../../src/task-store/push-config-store.token';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { WebhookReceiver } from '../support/webhook-receiver';
import { DurableTestApp, startDurableTestApp } from './support/durable-test-app';
import { sdkClient, userMessage } from './support/sdk-client';
import { TEST_AGENTS_TOML } from './support/test-agents';

interface Notification {
  statusUpdate?: { status?: { state?: string } };
  artifactUpdate?: unknown;
}

describe("a turn's webhooks", () => {
  let service: DurableTestApp;
  let webhook: WebhookReceiver<Notification>;
  let reads: jest.SpyInstance;

  beforeAll(async () => {
    webhook = await WebhookReceiver.start();
    service = await startDurableTestApp({ SWITCHBOARD_CONFIG: writeConfigFile(`[outbound]\nallow_hosts = ["127.0.0.1"]\n${TEST_AGENTS_TOML}`) });
    reads = jest.spyOn(service.app.get<PushNotificationStore>(PUSH_CONFIG_STORE), 'loadWithMetadata' as never);
  });

  afterAll(async () => {
    await service?.close();
    webhook?.close();
  });

  const received = (token: string) => webhook.received.filter(({ headers }) => headers['x-a2a-notification-token'] === token).map(({ body }) => body);
  const states = (token: string) => received(token).flatMap((n) => (n.statusUpdate?.status?.state ? [n.statusUpdate.status.state] : []));

  it('are read once for the turn, and again after one is set mid-turn', async () => {
    const client = await sdkClient(service.url, 'slow', 'JSONRPC');
    const send = userMessage('one two three four five');
    send.configuration = SendMessageConfiguration.fromJSON({ taskPushNotificationConfig: { url: webhook.url, token: 'first' } });
    const stream = client.sendMessageStream(send)[Symbol.asyncIterator]();
    let taskId = '';
    for (let next = await stream.next(); !next.done && next.value.payload?.$case !== 'artifactUpdate'; next = await stream.next()) {
      if (next.value.payload?.$case === 'task') taskId = next.value.payload.value.id;
    }
    const readsOfTask = () => reads.mock.calls.filter(([id]) => id === taskId).length;
    expect(readsOfTask()).toBe(1);

    await client.createTaskPushNotificationConfig({ tenant: '', id: 'late', taskId, url: webhook.url, token: 'late', authentication: undefined });
    for (let next = await stream.next(); !next.done; next = await stream.next());
    // Deliveries run concurrently: the last artifact may arrive after the completion.
    const delivered = () => ({ ended: [...states('first'), ...states('late')].filter((state) => state === 'TASK_STATE_COMPLETED').length, artifacts: received('first').filter((n) => n.artifactUpdate).length });
    await eventually(async () => delivered(), ({ ended, artifacts }) => ended === 2 && artifacts === 5);
    // The slow agent records its five chunks in batches of their own: read for each, that would be six reads or more.
    expect(readsOfTask()).toBe(2);
  });
});
