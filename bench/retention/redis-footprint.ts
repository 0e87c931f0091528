/** What a Switchboard key prefix holds in Redis: keys and bytes (MEMORY USAGE) by kind of key. */
import Redis from 'ioredis';

const SCAN_COUNT = 1_000;

export interface RedisFootprint {
  keys: number;
  bytes: number;
  /** Keys by kind: the first segment after the prefix (`task-events`, `task`, `cancel`, `bull`, ...). */
  keysByKind: Record<string, number>;
}

export async function redisFootprint(url: string, prefix: string): Promise<RedisFootprint> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const footprint: RedisFootprint = { keys: 0, bytes: 0, keysByKind: {} };
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: SCAN_COUNT }) as AsyncIterable<string[]>) {
      if (keys.length === 0) continue;
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.memory('USAGE', key);
      const usages = (await pipeline.exec()) ?? [];
      for (const [index, key] of keys.entries()) {
        const kind = key.slice(prefix.length).split(':')[0];
        footprint.keysByKind[kind] = (footprint.keysByKind[kind] ?? 0) + 1;
        footprint.keys++;
        footprint.bytes += Number(usages[index]?.[1] ?? 0);
      }
    }
    return footprint;
  } finally {
    redis.disconnect();
  }
}
