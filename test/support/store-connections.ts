import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../src/config/config.schema';
import { PrismaService } from '../../src/database/prisma.service';
import { RedisService } from '../../src/redis/redis.service';
import { deleteRedisKeys, testRedisPrefix, testRedisUrl } from './test-database';

type Config = ConfigService<SwitchboardConfig, true>;

function config(values: Partial<Record<keyof SwitchboardConfig, unknown>>): Config {
  return new ConfigService(values) as Config;
}

export function connectPrisma(url: string): PrismaService {
  return new PrismaService(config({ database: { url } }));
}

/** A RedisService namespaced under `prefix`; several services may share one prefix, like replicas. */
export function connectRedis(prefix: string, url = testRedisUrl()): RedisService {
  return new RedisService(config({ redis: { url, key_prefix: prefix } }));
}

/** One test file's Redis namespace: its connections, and its keys deleted on close. */
export class RedisNamespace {
  readonly prefix = testRedisPrefix();
  private readonly services: RedisService[] = [];

  connect(): RedisService {
    const service = connectRedis(this.prefix);
    this.services.push(service);
    return service;
  }

  async close(): Promise<void> {
    await Promise.all(this.services.map((service) => service.onApplicationShutdown()));
    await deleteRedisKeys(this.prefix);
  }
}
