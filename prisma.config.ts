import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

/**
 * The CLI runs its bundled WASM schema engine through the pg driver adapter, so no engine binary is
 * ever downloaded.
 *
 * `prisma generate` runs in `npm ci` (the prepare script) before any database exists, and
 * `migrate diff` between datamodels needs none either; but both resolve the schema's
 * `env("DATABASE_URL")` (generate falls back to downloading the native engine if it cannot). So a
 * missing URL is replaced by one whose host names the problem: a command that really connects fails
 * with "getaddrinfo ENOTFOUND database-url-is-not-set.invalid".
 */
process.env.DATABASE_URL ||= 'postgresql://database-url-is-not-set.invalid/switchboard';
const connectionString = process.env.DATABASE_URL;

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaPg({ connectionString }),
});
