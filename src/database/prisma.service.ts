import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool, QueryResultRow } from 'pg';
import type { SwitchboardConfig } from '../config/config.schema';
import { withTimeout } from '../common/with-timeout';
import { PrismaClient } from '../generated/prisma/client';
import { assertMigrated } from './schema-version';

/** How long shutdown waits for the pool's connections to be given back and closed. */
const POOL_END_TIMEOUT_MS = 2_000;

/** Connections per process; a statement holds one for a few milliseconds. */
const POOL_SIZE = 10;

const WRITABLE_QUERY = "SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS read_only";

/**
 * The one place that knows how to reach Postgres: the generated Prisma client running on the pg
 * driver adapter (no native query engine), over a pg pool it shares with `hotQuery`. Closes the pool
 * on shutdown.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  private readonly logger = new Logger(PrismaService.name);
  private readonly pool: Pool;

  constructor(config: ConfigService<SwitchboardConfig, true>) {
    const { url } = config.get('database', { infer: true });
    if (!url) throw new Error('PrismaService needs database.url (DATABASE_URL)');
    const pool = new Pool({
      connectionString: url,
      max: POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    super({ adapter: new PrismaPg(pool) });
    this.pool = pool;
    // An idle connection the server drops (a restart, a terminated backend) is an event, not a crash:
    // the pool discards it and opens another on demand.
    pool.on('error', (error) => this.logger.warn({ err: error.message }, 'idle Postgres connection lost'));
  }

  /**
   * A statement run every agent turn, as a named prepared statement straight on the pool: measured
   * here, a primary-key SELECT costs 1.35 ms of CPU through Prisma's query builder, 0.44 ms through
   * `$queryRaw` and 0.12 ms this way. Everything else goes through Prisma.
   */
  async hotQuery<R extends QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> {
    return (await this.pool.query<R>({ name, text, values })).rows;
  }

  /**
   * Rejects unless Postgres answers and would take a write. A standby (a failover under way) and a
   * server whose transactions are read-only by default (`default_transaction_read_only`, the way a
   * full disk is fenced off) answer every read while each task write fails. Asked on a pooled
   * connection, so it sees the settings the service's own writes run with; it writes nothing.
   */
  async checkWritable(timeoutMs: number): Promise<void> {
    const [state] = await withTimeout(
      this.hotQuery<{ standby: boolean; read_only: string }>('check-writable', WRITABLE_QUERY, []),
      timeoutMs,
      'Postgres write check',
    );
    if (state.standby) throw new Error('Postgres refuses writes: the server is a standby (in recovery)');
    if (state.read_only === 'on')
      throw new Error('Postgres refuses writes: transactions are read-only (default_transaction_read_only is on)');
  }

  /** Rejects with DatabaseNotMigratedError when the schema lacks a migration this build ships (dropped, or never applied). */
  async checkSchema(timeoutMs: number): Promise<void> {
    await withTimeout(
      assertMigrated(async <R>(sql: string) => (await this.pool.query(sql)).rows as R[]),
      timeoutMs,
      'Postgres schema check',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
    // A transaction whose connection Postgres cut (a restart, a failover) can keep its client checked
    // out for good (seen with the pg adapter's interactive transactions): the pool's end would wait on
    // it forever, and the process would never finish stopping.
    await withTimeout(this.pool.end(), POOL_END_TIMEOUT_MS, 'closing the Postgres pool').catch((error: Error) =>
      this.logger.warn(
        { err: error.message, checkedOut: this.pool.totalCount - this.pool.idleCount },
        'Postgres connections left open at shutdown',
      ),
    );
  }
}
