import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SwitchboardConfig } from '../config/config.schema';
import { withTimeout } from '../common/with-timeout';
import { PrismaClient } from '../generated/prisma/client';

/** Connections per process; row-locking updates hold one for a few milliseconds each. */
const POOL_SIZE = 10;

/**
 * The one place that knows how to reach Postgres: the generated Prisma client running on the pg
 * driver adapter (no native query engine). Closes its pool on shutdown.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(config: ConfigService<SwitchboardConfig, true>) {
    const { url } = config.get('database', { infer: true });
    if (!url) throw new Error('PrismaService needs database.url (DATABASE_URL)');
    super({
      adapter: new PrismaPg({
        connectionString: url,
        max: POOL_SIZE,
        connectionTimeoutMillis: 5_000,
        idleTimeoutMillis: 30_000,
      }),
    });
  }

  async ping(timeoutMs: number): Promise<void> {
    await withTimeout(this.$queryRaw`SELECT 1`, timeoutMs, 'Postgres SELECT 1');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
