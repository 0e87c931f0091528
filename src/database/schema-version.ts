import { resolve } from 'node:path';
import { Client } from 'pg';
import {
  APPLIED_MIGRATIONS_QUERY,
  type AppliedMigration,
  migrationNames,
  migrationState,
  unfinishedMigrationMessage,
} from './migrator';

/** The package's own migrations, shipped beside `dist/` and `src/` (the production image copies them too). */
export const MIGRATIONS_DIR = resolve(__dirname, '../../prisma/migrations');

const HOW_TO_MIGRATE = 'run `switchboard migrate` (npm run migrate) with the same DATABASE_URL';

/** The database lacks migrations this build needs: its queries would fail, or wait, on tables that are not there. */
export class DatabaseNotMigratedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseNotMigratedError';
  }
}

/** Runs one SQL statement and returns its rows: a pg client at boot, Prisma inside the app. */
export type SqlQuery = <R>(sql: string) => Promise<R[]>;

/**
 * Throws DatabaseNotMigratedError unless every migration of `expected` is applied. Migrations the
 * database has and this build does not know are fine: a newer version migrated it and older
 * replicas still run during a rolling upgrade.
 */
export async function assertMigrated(query: SqlQuery, expected: string[] = shippedMigrations()): Promise<void> {
  const [{ present }] = await query<{ present: boolean }>(
    `SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`,
  );
  const rows = present ? await query<AppliedMigration>(APPLIED_MIGRATIONS_QUERY) : [];
  const { unfinished, pending } = migrationState(rows, expected);
  if (unfinished)
    throw new DatabaseNotMigratedError(`the database is not fully migrated: ${unfinishedMigrationMessage(unfinished)}`);
  if (pending.length === 0) return;
  const what =
    pending.length === expected.length
      ? `none of the ${expected.length} migrations is applied`
      : `${pending.length} of ${expected.length} migrations are missing`;
  throw new DatabaseNotMigratedError(
    `the database is not migrated: ${what} (${pending.join(', ')}); ${HOW_TO_MIGRATE}`,
  );
}

/** Connects to `databaseUrl` on a connection of its own (before the app's pool exists) and runs assertMigrated. */
export async function assertDatabaseMigrated(databaseUrl: string, timeoutMs: number): Promise<void> {
  const client = new Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  await client.connect();
  try {
    await assertMigrated(async <R>(sql: string) => (await client.query(sql)).rows as R[]);
  } finally {
    await client.end();
  }
}

let shipped: string[] | undefined;

function shippedMigrations(): string[] {
  return (shipped ??= migrationNames(MIGRATIONS_DIR));
}
