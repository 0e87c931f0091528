/** `switchboard migrate`: the image's migration command, interchangeable with `prisma migrate deploy`. */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { applyMigrations, MigrationError } from '../../src/database/migrator';
import { createDatabase, type TestDatabase, uniqueName } from '../support/test-database';

const run = promisify(execFile);
const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/switchboard.js');

function switchboardMigrate(databaseUrl?: string): Promise<{ stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', ...(databaseUrl && { DATABASE_URL: databaseUrl }) };
  return run(process.execPath, [BIN, 'migrate'], { env, cwd: mkdtempSync(join(tmpdir(), 'switchboard-migrate-')) });
}

function prisma(args: string[], databaseUrl: string): Promise<{ stdout: string; stderr: string }> {
  return run(join(ROOT, 'node_modules/.bin/prisma'), args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}

async function query<T>(databaseUrl: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('switchboard migrate', () => {
  const databases: TestDatabase[] = [];
  const fresh = async () => {
    const database = await createDatabase(uniqueName('switchboard_migrate'));
    databases.push(database);
    return database;
  };
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()));
  });

  it('applies every migration once, and then Prisma finds the database up to date', async () => {
    const { url } = await fresh();
    expect((await switchboardMigrate(url)).stderr).toMatch(
      /^Applied 6 migration\(s\): 20261123023847_init, 20261123140830_drop_task_events, 20261128100000_operator_activity, 20261207180000_tasks_agent_list_index, 20261207213000_audit_entries, 20261207233000_catalog_entries/,
    );
    expect((await switchboardMigrate(url)).stderr).toMatch(/up to date/);
    expect((await query<{ n: string }>(url, 'SELECT count(*) AS n FROM tasks'))[0].n).toBe('0');
    expect((await prisma(['migrate', 'status'], url)).stdout).toMatch(/Database schema is up to date/);
    expect((await prisma(['migrate', 'deploy'], url)).stdout).toMatch(/No pending migrations to apply/);
  }, 60_000);

  it('applies nothing to a database Prisma migrated', async () => {
    const { url } = await fresh();
    await prisma(['migrate', 'deploy'], url);
    expect((await switchboardMigrate(url)).stderr).toMatch(/up to date/);
  }, 60_000);

  it('writes a migration from the datamodel with prisma migrate diff, the way migrations are authored', async () => {
    const { url } = await fresh();
    const { stdout } = await prisma(
      ['migrate', 'diff', '--from-empty', '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
      url,
    );
    expect(stdout).toMatch(/CREATE TABLE "tasks"/);
  }, 60_000);

  it('refuses to run without a database, naming the key', async () => {
    await expect(switchboardMigrate()).rejects.toMatchObject({
      code: 78,
      stderr: expect.stringMatching(/database\.url: `switchboard migrate` needs a database \(DATABASE_URL\)/),
    });
  });

  it("keeps a failed migration's error and refuses to go on past it", async () => {
    const { url } = await fresh();
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-migrations-'));
    for (const [name, sql] of [
      ['1_good', 'CREATE TABLE t1 (id int);'],
      ['2_bad', 'CREATE TABLE t2 (id nosuchtype);'],
      ['3_later', 'CREATE TABLE t3 (id int);'],
    ]) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'migration.sql'), sql);
    }
    await expect(applyMigrations(url, dir)).rejects.toThrow(/migration 2_bad failed: type "nosuchtype" does not exist/);
    const rows = await query<{ migration_name: string; finished_at: Date | null; logs: string | null }>(
      url,
      'SELECT migration_name, finished_at, logs FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((row) => [row.migration_name, row.finished_at !== null, row.logs])).toEqual([
      ['1_good', true, null],
      ['2_bad', false, 'type "nosuchtype" does not exist'],
    ]);
    await expect(applyMigrations(url, dir)).rejects.toBeInstanceOf(MigrationError);
    expect(await query(url, "SELECT 1 FROM pg_tables WHERE tablename = 't3'")).toEqual([]);
  }, 60_000);
});
