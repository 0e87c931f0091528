import { MigrationError } from '../database/migrator';
import { assertDatabaseMigrated, DatabaseNotMigratedError } from '../database/schema-version';
import { EXIT_CONFIG, StartupError } from './startup-error';

/** Postgres refusals that no waiting fixes, by SQLSTATE, with what to do about them. */
const UNUSABLE_DATABASE: Record<string, string> = {
  '3D000': 'create it, then run `switchboard migrate`',
  '28P01': 'check the user and password in the URL',
  '28000': 'check the user in the URL, and that pg_hba.conf lets it connect',
};
const CHECK_TIMEOUT_MS = 5_000;

/**
 * Before anything starts: a database that lacks a migration, or that cannot be used at all, stops
 * the boot with the way out. One that does not answer yet (still starting, a network blip) only
 * gets a warning: /readyz reports Postgres and the schema until they are right.
 */
export async function checkDatabaseAtBoot(
  databaseUrl: string | undefined,
  warn: (message: string) => void,
): Promise<void> {
  if (!databaseUrl) return;
  try {
    await assertDatabaseMigrated(databaseUrl, CHECK_TIMEOUT_MS);
  } catch (error) {
    if (error instanceof DatabaseNotMigratedError)
      throw new StartupError(`Cannot start: ${error.message}.`, EXIT_CONFIG);
    const unusable = unusableDatabase(error);
    if (unusable) throw unusable;
    warn(
      `could not check the database schema (${(error as Error).message}); starting anyway: /readyz reports Postgres and the schema until they answer`,
    );
  }
}

/** What `switchboard migrate` says when it cannot: one line, not a stack, unless the error is not the database's. */
export function migrationFailure(error: unknown): unknown {
  if (error instanceof MigrationError) return new StartupError(`Cannot migrate: ${error.message}.`, 1);
  const unusable = unusableDatabase(error);
  if (unusable) return unusable;
  // Node's system errors (ECONNREFUSED, ENOTFOUND, ...) and Postgres errors carry a code; a bug does not.
  if ((error as { code?: unknown })?.code !== undefined)
    return new StartupError(
      `Cannot migrate the database at DATABASE_URL (database.url): ${(error as Error).message}.`,
      1,
    );
  return error;
}

function unusableDatabase(error: unknown): StartupError | undefined {
  const { code, message } = error as { code?: string; message: string };
  const remedy = code === undefined ? undefined : UNUSABLE_DATABASE[code];
  return remedy
    ? new StartupError(`Cannot use the database at DATABASE_URL (database.url): ${message}; ${remedy}.`, EXIT_CONFIG)
    : undefined;
}
