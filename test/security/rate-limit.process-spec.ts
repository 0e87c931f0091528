import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import type { SwitchboardConfig } from '../../src/config/config.schema';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';
import { bearer, startTestApp, TEST_API_KEY, testConfig } from '../support/test-app';
import { startAppWithTestRoutes } from './test-routes';

const REDIS_URL = 'redis://127.0.0.1:6379';
const LIMIT = 5;
const WINDOW_SECS = 60;
const OTHER_KEY = 'other-key-0123456789abcdef';
const WRONG_KEY = 'wrong-key-0123456789abcdef';

/** No queue workers in these apps: rate limiting does not need them, and they would share the test's Redis. */
function limitedConfig(
  env: Record<string, string>,
  rateLimit: Partial<SwitchboardConfig['rate_limit']> = {},
): SwitchboardConfig {
  const config = testConfig({
    SWITCHBOARD_API_KEYS: `tester=${TEST_API_KEY},other=${OTHER_KEY}`,
    SWITCHBOARD_RATE_LIMIT: String(LIMIT),
    SWITCHBOARD_WORKER_IN_API: '0',
    ...env,
  });
  return { ...config, rate_limit: { ...config.rate_limit, window_secs: WINDOW_SECS, ...rateLimit } };
}

async function statuses(
  url: string,
  count: number,
  headers: Record<string, string> = {},
  path = '/metrics',
): Promise<number[]> {
  const seen: number[] = [];
  for (let i = 0; i < count; i++) seen.push((await fetch(url + path, { headers })).status);
  return seen;
}

function expectRetryAfter(response: Response): void {
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECS);
  expect(response.headers.get('retry-after-default')).toBeNull();
}

/** Every key this run wrote: the prefix itself, and counters, which the storage wraps in a hash tag. */
async function keysOf(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  for (const pattern of [`${prefix}*`, `{${prefix}*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      found.push(...keys);
      cursor = next;
    } while (cursor !== '0');
  }
  return found;
}

describe('rate limiting with Redis', () => {
  const run = randomUUID();
  const sharedPrefix = `sbtest:security:${run}:a:`;
  const otherPrefix = `sbtest:security:${run}:b:`;
  let redis: Redis;
  const apps: NestFastifyApplication[] = [];
  let first: string;
  let second: string;
  let separate: string;

  async function start(prefix: string): Promise<string> {
    const { app, url } = await startTestApp(limitedConfig({ REDIS_URL, SWITCHBOARD_REDIS_PREFIX: prefix }));
    apps.push(app);
    return url;
  }

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    first = await start(sharedPrefix);
    second = await start(sharedPrefix);
    separate = await start(otherPrefix);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    const leftovers = [...(await keysOf(redis, sharedPrefix)), ...(await keysOf(redis, otherPrefix))];
    if (leftovers.length > 0) await redis.del(...leftovers);
    await redis?.quit();
  });

  it('shares one budget per key between two instances on one Redis, then answers 429 with Retry-After', async () => {
    const allowed = [];
    for (let i = 0; i < LIMIT; i++)
      allowed.push((await fetch(`${i % 2 ? second : first}/metrics`, { headers: bearer() })).status);
    expect(allowed).toEqual(Array(LIMIT).fill(200));

    for (const url of [first, second]) {
      const response = await fetch(`${url}/metrics`, { headers: bearer() });
      expect(response.status).toBe(429);
      expectRetryAfter(response);
      expect(await response.json()).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: expect.stringMatching(/^rate limit of 5 requests per 60 s exceeded; retry in \d+ s$/),
      });
    }
  });

  it('keeps budgets apart under a different key prefix', async () => {
    expect(await statuses(separate, LIMIT, bearer())).toEqual(Array(LIMIT).fill(200));
  });

  it('counts requests with a wrong key against the client IP, before authenticating them', async () => {
    expect(await statuses(first, LIMIT, bearer(WRONG_KEY))).toEqual(Array(LIMIT).fill(401));
    const blocked = await fetch(`${second}/metrics`, { headers: bearer(WRONG_KEY) });
    expect(blocked.status).toBe(429);
    expectRetryAfter(blocked);
    expect((await fetch(`${first}/metrics`)).status).toBe(429);
    // A valid key has a budget of its own, even from a blocked IP.
    expect((await fetch(`${first}/metrics`, { headers: bearer(OTHER_KEY) })).status).toBe(200);
  });

  it('neither counts nor blocks the health probes', async () => {
    expect(await statuses(separate, LIMIT + 3, {}, '/healthz')).toEqual(Array(LIMIT + 3).fill(200));
    expect(await statuses(separate, LIMIT + 3, {}, '/readyz')).not.toContain(429);
    // The IP's budget is untouched: an unauthenticated request is refused for its missing key, not its rate.
    expect((await fetch(`${separate}/metrics`)).status).toBe(401);
  });

  it('keeps its counters under the configured key prefix', async () => {
    await fetch(`${first}/metrics`);
    await fetch(`${first}/metrics`, { headers: bearer() });
    const keys = await keysOf(redis, sharedPrefix);
    expect(keys).toEqual(
      expect.arrayContaining([
        `{${sharedPrefix}ratelimit:key:tester:default}:hits`,
        `{${sharedPrefix}ratelimit:ip:127.0.0.1:default}:hits`,
      ]),
    );
    expect(keys.filter((key) => key.startsWith(`{${otherPrefix}`))).toEqual([]);
  });
});

describe('rate limiting in memory (no Redis)', () => {
  let app: NestFastifyApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('limits each client within the process', async () => {
    let url: string;
    ({ app, url } = await startTestApp(limitedConfig({})));
    expect(await statuses(url, LIMIT, bearer())).toEqual(Array(LIMIT).fill(200));
    const response = await fetch(`${url}/metrics`, { headers: bearer() });
    expect(response.status).toBe(429);
    expectRetryAfter(response);
  });

  it('is off when rate_limit.enabled is false', async () => {
    let url: string;
    ({ app, url } = await startTestApp(limitedConfig({}, { enabled: false })));
    expect(await statuses(url, LIMIT * 2, bearer())).toEqual(Array(LIMIT * 2).fill(200));
    expect((await fetch(`${url}/metrics`, { headers: bearer() })).headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('rate limiting during a Redis outage', () => {
  let redis: RedisProcess;
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    ({ app, url } = await startAppWithTestRoutes(limitedConfig({ REDIS_URL: redis.url })));
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  it('lets requests through uncounted, still authenticates them, and counts again once Redis is back', async () => {
    const whoami = (headers: Record<string, string> = bearer()) => fetch(`${url}/__test/whoami`, { headers });
    expect((await whoami()).headers.get('x-ratelimit-remaining')).toBe(String(LIMIT - 1));

    await redis.stop();
    try {
      const started = Date.now();
      const uncounted = await whoami();
      expect(uncounted.status).toBe(200);
      expect(uncounted.headers.get('x-ratelimit-remaining')).toBeNull();
      expect(Date.now() - started).toBeLessThan(3_000);
      expect((await whoami(bearer(WRONG_KEY))).status).toBe(401);
    } finally {
      await redis.restart();
    }
    const counted = await eventually(
      whoami,
      (response) => response.headers.get('x-ratelimit-remaining') !== null,
      15_000,
    );
    expect(counted.status).toBe(200);
  });
});
