import { PrismaPg } from '@prisma/adapter-pg';
import { Client, Pool, type QueryResult } from 'pg';
import { defineConfig } from 'prisma/config';

/**
 * The CLI runs its bundled WASM schema engine through the pg driver adapter, so no engine binary is
 * ever downloaded.
 *
 * `prisma generate` runs in `npm ci` (the prepare script) before any database exists, but it
 * resolves the schema's `env("DATABASE_URL")` (and falls back to downloading the native engine if it
 * cannot). So a missing URL is replaced by one whose host names the problem: a command that connects
 * (every `migrate` command, `migrate diff` between two datamodels included) fails with
 * "Can't reach database server at `database-url-is-not-set.invalid`".
 */
process.env.DATABASE_URL ||= 'postgresql://database-url-is-not-set.invalid/switchboard';
const connectionString = process.env.DATABASE_URL;

const PG_NAME = 19;
const PG_TEXT = 25;

function labelNamesAsText<R>(result: R): R {
  for (const one of (Array.isArray(result) ? result : [result]) as (QueryResult | undefined)[]) {
    for (const field of one?.fields ?? []) if (field.dataTypeID === PG_NAME) field.dataTypeID = PG_TEXT;
  }
  return result;
}

/**
 * `@prisma/adapter-pg` 6.19 has no column type for `name` (the type of Postgres' catalog columns),
 * so the schema engine's `migrate deploy`, `status` and `resolve` fail with "Column type 'name' could
 * not be deserialized from the database" (prisma/prisma#27403; the 7.x adapter fixed it, but it does
 * not belong with a 6.19 client). pg already reads such columns as strings: this client only labels
 * them text, as the 7.x adapter does. The CLI alone needs it; the service never reads the catalog
 * through Prisma.
 */
class NameAsTextClient extends Client {
  // pg's overloads (callback, promise, submittable) cannot be restated one by one.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const query = super.query as (...args: unknown[]) => unknown;
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (error: Error | undefined, result: unknown) =>
        callback(error, result && labelNamesAsText(result));
      return query.apply(this, args);
    }
    const returned = query.apply(this, args);
    return returned instanceof Promise ? returned.then(labelNamesAsText) : returned;
  }
}

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () =>
    new PrismaPg(new Pool({ connectionString, Client: NameAsTextClient }), { disposeExternalPool: true }),
});
