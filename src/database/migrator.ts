import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

/** The advisory lock `prisma migrate` takes, so that the two never migrate one database at once. */
const PRISMA_MIGRATE_LOCK = 72707369;

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** A row of `_prisma_migrations`, as far as deciding what is applied goes. */
export interface AppliedMigration {
  migration_name: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export const APPLIED_MIGRATIONS_QUERY = 'SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"';

export interface MigrationState {
  /** A migration started and never finished (it failed, or is being applied right now): nothing after it may run. */
  unfinished?: string;
  /** Migrations of `expected` not applied, in order. */
  pending: string[];
}

/** Compares a database's `_prisma_migrations` rows with the migrations a build ships; rolled-back rows do not count. */
export function migrationState(rows: AppliedMigration[], expected: string[]): MigrationState {
  const live = rows.filter((row) => row.rolled_back_at === null);
  const done = new Set(live.map((row) => row.migration_name));
  return {
    unfinished: live.find((row) => row.finished_at === null)?.migration_name,
    pending: expected.filter((name) => !done.has(name)),
  };
}

export function unfinishedMigrationMessage(name: string): string {
  return `migration ${name} failed earlier and was not resolved (or is being applied right now); see its logs in _prisma_migrations, fix the database, then mark it rolled back`;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

/**
 * Applies `prisma/migrations/<name>/migration.sql` in order, as `prisma migrate deploy` does and
 * in its own bookkeeping (`_prisma_migrations`, sha-256 checksums, its advisory lock), so that either
 * may run against a database the other migrated. The production image carries no Prisma CLI: with
 * the packages it pulls in, it would add about 110 MB. Returns the names of the migrations applied.
 */
export async function applyMigrations(databaseUrl: string, migrationsDir: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    await client.query(MIGRATIONS_TABLE);
    const { rows } = await client.query<AppliedMigration>(APPLIED_MIGRATIONS_QUERY);
    const { unfinished, pending } = migrationState(rows, migrationNames(migrationsDir));
    if (unfinished) throw new MigrationError(unfinishedMigrationMessage(unfinished));
    for (const name of pending)
      await applyOne(client, name, readFileSync(join(migrationsDir, name, 'migration.sql'), 'utf8'));
    return pending;
  } finally {
    await client.end();
  }
}

/** The migrations in `migrationsDir` (`<name>/migration.sql`), in the order they apply. */
export function migrationNames(migrationsDir: string): string[] {
  if (!existsSync(migrationsDir)) throw new MigrationError(`no migrations directory at ${migrationsDir}`);
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort();
}

/** Recorded as started, run as one script (Prisma's way: no transaction around it), then recorded as finished, or its error kept in `logs`. */
async function applyOne(client: Client, name: string, sql: string): Promise<void> {
  const id = randomUUID();
  const checksum = createHash('sha256').update(sql).digest('hex');
  await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name) VALUES ($1, $2, $3)', [
    id,
    checksum,
    name,
  ]);
  try {
    await client.query(sql);
  } catch (error) {
    await client.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [id, (error as Error).message]);
    throw new MigrationError(`migration ${name} failed: ${(error as Error).message}`);
  }
  await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [
    id,
  ]);
}
