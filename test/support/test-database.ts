/**
 * Databases and Redis namespaces for tests, so that test files run in parallel without sharing
 * state. global-setup.ts migrates one template database per run; each test file clones it.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import Redis from 'ioredis';
import { Client } from 'pg';
import { applyMigrations as applyDatabaseMigrations } from '../../src/database/migrator';

export const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_TEST_REDIS_URL = 'redis://127.0.0.1:6379';
/** Set by global-setup for the test workers: the migrated database each test database is cloned from. */
export const TEMPLATE_DATABASE_ENV = 'SWITCHBOARD_TEST_TEMPLATE_DB';
/** Set for the unit project's specs (no-stores.ts), which may reach neither store. */
export const NO_STORES_ENV = 'SWITCHBOARD_TEST_NO_STORES';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** The server's maintenance database, from which databases are created and dropped. */
export function adminDatabaseUrl(): string {
  return storeSetting('TEST_DATABASE_URL') ?? DEFAULT_TEST_DATABASE_URL;
}

export function testRedisUrl(): string {
  return storeSetting('TEST_REDIS_URL') ?? DEFAULT_TEST_REDIS_URL;
}

function storeSetting(variable: string): string | undefined {
  if (process.env[NO_STORES_ENV]) {
    throw new Error(
      `a unit spec (*.spec.ts) reaches no store, so it has no ${variable}: name it *.e2e-spec.ts (jest.config.js)`,
    );
  }
  return process.env[variable];
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** A fresh, migrated database of this test file's own, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = storeSetting(TEMPLATE_DATABASE_ENV);
  if (!template)
    throw new Error(`${TEMPLATE_DATABASE_ENV} is not set: run tests through jest, whose globalSetup creates it`);
  return createDatabase(uniqueName('switchboard_test'), template);
}

/** Creates a database on the TEST_DATABASE_URL server, empty or as a copy of `template`. */
export async function createDatabase(name: string, template?: string): Promise<TestDatabase> {
  await admin(`CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`);
  return { url: databaseUrl(name), drop: () => dropDatabase(name) };
}

export async function dropDatabase(name: string): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
}

/** Applies the migrations as `npm run migrate` (`switchboard migrate`) does in production. */
export async function applyMigrations(url: string): Promise<void> {
  await applyDatabaseMigrations(url, resolve(__dirname, '../../prisma/migrations'));
}

/** A key prefix of this test file's own: pass it as redis.key_prefix (SWITCHBOARD_REDIS_PREFIX). */
export function testRedisPrefix(): string {
  return `sbtest:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under `prefix`; call it in afterAll. */
export async function deleteRedisKeys(prefix: string, url = testRedisUrl()): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
