/**
 * Webhook deliveries keep the config's secrets out of the queue: a delivery job carries ids (and the
 * notification), the worker reads the URL, token and credentials from the push config store when it
 * delivers, and its log names only the webhook's origin. Real API and worker processes, the real
 * Redis and Postgres; the receiver fails some deliveries so that their jobs stay in Redis.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { type ServiceProcess, ServiceProcesses } from '../../support/service-processes';
import { TEST_AGENTS_TOML } from '../../support/test-agents';
import { writeConfigFile } from '../../support/config-file';
import { eventually } from '../../support/eventually';
import { bearer } from '../../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../../support/test-database';
import type { Json } from '../../support/json';

const secret = (name: string) => `${name}-${randomBytes(8).toString('hex')}`;
const TOKEN = secret('token');
const CREDENTIAL = secret('credential');
const PATH_SECRET = secret('path');
const QUERY_SECRET = secret('query');
const SECRETS = [TOKEN, CREDENTIAL, PATH_SECRET, QUERY_SECRET];

interface Delivery {
  hook: string;
  headers: IncomingHttpHeaders;
  body: Json;
  answered: number;
}

/** Every value under `prefix` in Redis, whatever its type, as one string. */
async function redisDump(redis: Redis, prefix: string): Promise<string> {
  const values: string[] = [];
  for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) {
    for (const key of keys) {
      const type = await redis.type(key);
      const value =
        type === 'string'
          ? await redis.get(key)
          : type === 'hash'
            ? await redis.hgetall(key)
            : type === 'list'
              ? await redis.lrange(key, 0, -1)
              : type === 'set'
                ? await redis.smembers(key)
                : type === 'zset'
                  ? await redis.zrange(key, 0, -1)
                  : type === 'stream'
                    ? await redis.xrange(key, '-', '+')
                    : type;
      values.push(`${key} ${JSON.stringify(value)}`);
    }
  }
  return values.join('\n');
}

describe('push deliveries through the queue', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let redis: Redis;
  let services: ServiceProcesses;
  let api: ServiceProcess;
  let worker: ServiceProcess;
  let receiver: Server;
  let hooks: string;
  const deliveries: Delivery[] = [];

  const rpc = async (method: string, params: unknown): Promise<Json> => {
    const response = await fetch(`${api.baseUrl}/a2a/agents/slow`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...bearer() },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return (await response.json()) as Json;
  };

  beforeAll(async () => {
    // `flaky` fails its first delivery and takes the rest; `failing` fails every one, so its job ends failed and is kept.
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const hook = new URL(request.url!, 'http://receiver').pathname.split('/').at(-1)!;
        const answered = hook === 'flaky' && deliveries.some((delivery) => delivery.hook === 'flaky') ? 204 : 503;
        deliveries.push({ hook, headers: request.headers, body: JSON.parse(body) as Json, answered });
        response.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${PATH_SECRET}`;
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    redis = new Redis(testRedisUrl());
    const config = `${TEST_AGENTS_TOML}\n[outbound]\nallow_hosts = ["127.0.0.1"]\n[a2a.push]\nmax_attempts = 2\nbackoff_ms = 200\n`;
    services = new ServiceProcesses({
      SWITCHBOARD_CONFIG: writeConfigFile(config),
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    });
    [api, worker] = await Promise.all([services.api('api'), services.worker('worker')]);
  }, 60_000);

  afterAll(async () => {
    await services?.stopAll();
    receiver?.close();
    redis?.disconnect();
    if (redisPrefix) await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('delivers with the credentials read at delivery, and keeps none of them in Redis or the log', async () => {
    await services.explain(async () => {
      const message = { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: '0123456789' }] };
      const configuration = {
        returnImmediately: true,
        taskPushNotificationConfig: { id: 'flaky', url: `${hooks}/flaky?sig=${QUERY_SECRET}`, token: TOKEN },
      };
      const taskId = (await rpc('SendMessage', { message, configuration })).result.task.id as string;
      const failing = {
        taskId,
        id: 'failing',
        url: `${hooks}/failing`,
        authentication: { scheme: 'Bearer', credentials: CREDENTIAL },
      };
      expect((await rpc('CreateTaskPushNotificationConfig', failing)).result).toMatchObject({ id: 'failing' });

      const completed = (delivery: Delivery) => JSON.stringify(delivery.body).includes('TASK_STATE_COMPLETED');
      await eventually(
        async () => deliveries,
        (seen) => seen.some((d) => d.hook === 'flaky' && d.answered === 204 && completed(d)),
        20_000,
      );
      await eventually(
        async () => deliveries,
        (seen) => seen.filter((d) => d.hook === 'failing' && completed(d)).length === 2,
        20_000,
      );
      for (const delivery of deliveries.filter((d) => d.hook === 'flaky'))
        expect(delivery.headers['x-a2a-notification-token']).toBe(TOKEN);
      for (const delivery of deliveries.filter((d) => d.hook === 'failing'))
        expect(delivery.headers.authorization).toBe(`Bearer ${CREDENTIAL}`);

      // The failing webhook's notifications are given up after their last attempt; the jobs (kept an hour) and outboxes hold no secret.
      await eventually(
        async () => worker.output,
        (log) => log.includes('push notification given up'),
        20_000,
      );
      const dump = await redisDump(redis, redisPrefix);
      for (const value of SECRETS) expect(dump).not.toContain(value);
      expect(dump).toContain('\\"configId\\":\\"failing\\"');
      expect(dump).toContain('\\"configId\\":\\"flaky\\"');

      const log = worker.output;
      expect(log).toContain('push notification not delivered');
      expect(log).toContain(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`);
      for (const value of SECRETS) expect(log + api.output).not.toContain(value);
    });
  }, 60_000);
});
