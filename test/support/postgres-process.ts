import { execFileSync, type SpawnOptions } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { StoreProcess } from './store-process';

const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * A private PostgreSQL cluster (its own data directory and port) that a test starts and stops
 * itself, for outage tests. Postgres refuses to run as root, so under root it runs as `postgres`.
 */
export class PostgresProcess extends StoreProcess {
  private constructor(
    port: number,
    private readonly dataDir: string,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {
    super(port);
  }

  /** initdb into a fresh directory (trust auth, user `postgres`), then starts the server. */
  static async start(): Promise<PostgresProcess> {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-pg-'));
    const user = process.getuid?.() === 0 ? postgresUser() : undefined;
    if (user) chownSync(dataDir, user.uid, user.gid);
    execFileSync(`${PG_BIN}/initdb`, ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8'], {
      stdio: 'ignore',
      ...user,
    });
    const postgres = new PostgresProcess(await StoreProcess.freePort(), dataDir, user);
    await postgres.restart();
    return postgres;
  }

  /** The `postgres` maintenance database; create a database of the test's own from it. */
  get url(): string {
    return this.databaseUrl('postgres');
  }

  databaseUrl(database: string): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async createDatabase(name: string): Promise<string> {
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } finally {
      await client.end();
    }
    return this.databaseUrl(name);
  }

  /** Stops the server and removes its data directory. */
  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  protected command(): [string, string[], SpawnOptions] {
    const settings = [
      'listen_addresses=127.0.0.1',
      `unix_socket_directories=${this.dataDir}`,
      'fsync=off',
      'max_connections=200',
    ];
    return [
      `${PG_BIN}/postgres`,
      ['-D', this.dataDir, '-p', String(this.port), ...settings.flatMap((setting) => ['-c', setting])],
      { ...this.user },
    ];
  }

  /** Fast shutdown: every client connection is cut, as in an outage. */
  protected stopSignal(): NodeJS.Signals {
    return 'SIGINT';
  }

  protected async answers(): Promise<boolean> {
    const client = new Client({ connectionString: this.url, connectionTimeoutMillis: 1_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}
