import { EVENT_STREAM_TTL_SECS } from '../../../src/mcp-server/stores/mcp-event-store.interface';
import { RedisMcpEventStore } from '../../../src/mcp-server/stores/redis-mcp-event-store';
import { RedisNamespace } from '../../support/store-connections';
import { describeMcpEventStoreContract } from './mcp-event-store.contract';

describeMcpEventStoreContract('redis', async () => {
  const namespace = new RedisNamespace();
  return { store: new RedisMcpEventStore(namespace.connect()), close: () => namespace.close() };
});

describe('RedisMcpEventStore in Redis', () => {
  const namespace = new RedisNamespace();
  const redis = namespace.connect();
  const store = new RedisMcpEventStore(redis);
  afterAll(() => namespace.close());

  it('keeps each event as a stream entry, the last one followed by the end, and the stream expiring', async () => {
    const key = redis.key('mcp', 'events', 's1', 'stream');
    const request = store.forRequest('s1', (message) => 'id' in message);
    await request.storeEvent('stream', {} as never);
    await request.storeEvent('stream', { jsonrpc: '2.0', id: 7, result: {} });
    await request.end();

    const entries = await redis.client.xrange(key, '-', '+');
    expect(entries).toEqual([
      ['0-1', ['message', '{}']],
      ['0-2', ['message', '{"jsonrpc":"2.0","id":7,"result":{}}']],
      ['0-3', ['end', '1']],
    ]);
    const ttl = await redis.client.ttl(key);
    expect(ttl).toBeGreaterThan(EVENT_STREAM_TTL_SECS - 60);
    expect(ttl).toBeLessThanOrEqual(EVENT_STREAM_TTL_SECS);
  });
});
