import type { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { MemoryRateLimitStorage } from '../../src/security/memory-rate-limit.storage';
import { RedisRateLimitStorage } from '../../src/security/redis-rate-limit.storage';
import { eventually } from '../support/eventually';
import { RedisProcess } from '../support/redis-process';

const WINDOW_MS = 60_000;
const BLOCK_MS = 30_000;
const LIMIT = 3;

interface OpenedStorage {
  storage: ThrottlerStorage;
  close(): Promise<unknown>;
}

/** Rate-limit storages behind one contract: memory (one process) and Redis (shared by replicas). */
describe.each<[string, () => Promise<OpenedStorage>]>([
  ['memory', async () => ({ storage: new MemoryRateLimitStorage(), close: async () => undefined })],
  [
    'Redis',
    async () => {
      const redis = await RedisProcess.start();
      const client = new Redis(redis.url);
      return { storage: new RedisRateLimitStorage(client), close: () => client.quit().then(() => redis.stop()) };
    },
  ],
])('rate-limit storage (%s)', (_name, open) => {
  let storage: ThrottlerStorage;
  let close: () => Promise<unknown>;
  let client = 0;
  /** A client no other test has counted. */
  const newClient = () => `client-${++client}`;
  const hit = (key: string) => storage.increment(key, WINDOW_MS, LIMIT, BLOCK_MS, 'default');

  beforeAll(async () => ({ storage, close } = await open()));
  afterAll(() => close());

  it("counts a client's requests in a window and says when the window ends", async () => {
    const key = newClient();
    expect(await hit(key)).toEqual({
      totalHits: 1,
      timeToExpire: WINDOW_MS / 1000,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    expect(await hit(key)).toMatchObject({ totalHits: 2, isBlocked: false });
  });

  it('blocks the request past the limit and those after it, for the block duration, without counting them', async () => {
    const key = newClient();
    for (let i = 1; i <= LIMIT; i++) expect(await hit(key)).toMatchObject({ totalHits: i, isBlocked: false });
    expect(await hit(key)).toEqual({
      totalHits: LIMIT + 1,
      timeToExpire: WINDOW_MS / 1000,
      isBlocked: true,
      timeToBlockExpire: BLOCK_MS / 1000,
    });
    expect(await hit(key)).toMatchObject({ totalHits: LIMIT + 1, isBlocked: true, timeToBlockExpire: BLOCK_MS / 1000 });
  });

  it('keeps clients and throttlers apart', async () => {
    const key = newClient();
    for (let i = 0; i <= LIMIT; i++) await hit(key);
    expect(await hit(newClient())).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await storage.increment(key, WINDOW_MS, LIMIT, BLOCK_MS, 'other')).toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
  });
});

describe('rate-limit storage in memory, over time', () => {
  let now = 1_000_000;
  const storage = new MemoryRateLimitStorage(() => now);
  const hit = (key: string) => storage.increment(key, WINDOW_MS, LIMIT, BLOCK_MS, 'default');

  it('starts a new window once the last one ends, and lifts a block once it ends', async () => {
    for (let i = 0; i <= LIMIT; i++) await hit('client');
    now += WINDOW_MS / 2;
    expect(await hit('client')).toMatchObject({
      totalHits: LIMIT + 2,
      isBlocked: true,
      timeToExpire: WINDOW_MS / 2000,
    });
    now += WINDOW_MS / 2;
    expect(await hit('client')).toEqual({
      totalHits: 1,
      timeToExpire: WINDOW_MS / 1000,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
  });

  it('does not hold requests refused during a block against the client once it ends', async () => {
    for (let i = 0; i < LIMIT; i++) await hit('retrier');
    now += 45_000;
    expect(await hit('retrier')).toMatchObject({ isBlocked: true });
    // Retrying through its block, past the end of the window it was blocked in.
    for (const wait of [15_000, 5_000, 5_000]) {
      now += wait;
      expect(await hit('retrier')).toMatchObject({ isBlocked: true });
    }
    now += BLOCK_MS - 25_000;
    expect(await hit('retrier')).toMatchObject({ totalHits: 1, isBlocked: false });
  });
});

describe('rate-limit storage in Redis, its script', () => {
  let redis: RedisProcess;
  let client: Redis;
  let storage: RedisRateLimitStorage;

  beforeAll(async () => {
    redis = await RedisProcess.start();
    client = new Redis(redis.url);
    storage = new RedisRateLimitStorage(client);
  });

  afterAll(async () => {
    await client?.quit();
    await redis?.stop();
  });

  /** Calls of EVAL and EVALSHA so far, from Redis's own command statistics. */
  async function scriptCalls(): Promise<{ eval: number; evalsha: number }> {
    const stats = await client.info('commandstats');
    const calls = (command: string) =>
      Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
    return { eval: calls('eval'), evalsha: calls('evalsha') };
  }

  it('goes by its SHA: sent whole at most once, and again only when Redis has lost it', async () => {
    const before = await scriptCalls();
    for (let i = 0; i < 5; i++) await storage.increment('client', WINDOW_MS, LIMIT, BLOCK_MS, 'default');
    const after = await scriptCalls();
    expect(after.eval - before.eval + (after.evalsha - before.evalsha)).toBe(5);
    expect(after.eval - before.eval).toBeLessThanOrEqual(1);

    await client.script('FLUSH');
    // Blocked since its fourth request: those after it are not counted.
    expect(await storage.increment('client', WINDOW_MS, LIMIT, BLOCK_MS, 'default')).toMatchObject({
      totalHits: LIMIT + 1,
      isBlocked: true,
    });
  });

  it('ends a window when Redis expires its counter', async () => {
    await storage.increment('short', 50, LIMIT, BLOCK_MS, 'default');
    await eventually(
      () => client.exists('{short:default}:hits'),
      (exists) => exists === 0,
    );
    expect(await storage.increment('short', 50, LIMIT, BLOCK_MS, 'default')).toMatchObject({ totalHits: 1 });
  });
});
