import type { PrismaService } from '../../../src/database/prisma.service';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { connectPrisma } from '../../support/store-connections';

/** This test file's own migrated database and a client on it. */
export class PostgresFixture {
  private constructor(
    readonly database: TestDatabase,
    readonly prisma: PrismaService,
  ) {}

  static async create(): Promise<PostgresFixture> {
    const database = await createTestDatabase();
    return new PostgresFixture(database, connectPrisma(database.url));
  }

  async truncate(): Promise<void> {
    await this.prisma.$executeRaw`TRUNCATE tasks, push_configs`;
  }

  async close(): Promise<void> {
    await this.prisma.onApplicationShutdown();
    await this.database.drop();
  }
}
