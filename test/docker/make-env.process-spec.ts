/**
 * docker/make-env.sh, run as a user runs it: in a directory laid out as a clone (the script and
 * .env.example), fresh and with `--force` over an .env the user has edited.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/config/config.loader';

const REPO = resolve(__dirname, '../..');
const EXAMPLE = readFileSync(join(REPO, '.env.example'), 'utf8');
/** The variables .env.example sets (commented-out ones aside). */
const EXAMPLE_VARIABLES = EXAMPLE.split('\n')
  .filter((line) => /^[A-Z_]+=/.test(line))
  .map((line) => line.slice(0, line.indexOf('=')));

let clone: string;

beforeEach(() => {
  clone = mkdtempSync(join(tmpdir(), 'switchboard-make-env-'));
  mkdirSync(join(clone, 'docker'));
  copyFileSync(join(REPO, 'docker/make-env.sh'), join(clone, 'docker/make-env.sh'));
  copyFileSync(join(REPO, '.env.example'), join(clone, '.env.example'));
});

afterEach(() => rmSync(clone, { recursive: true, force: true }));

function makeEnv(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('sh', ['docker/make-env.sh', ...args], { cwd: clone }, (error, stdout, stderr) => done({ code: error ? Number(error.code) : 0, stdout, stderr }));
  });
}

const envFile = () => readFileSync(join(clone, '.env'), 'utf8');
const variables = (text: string) => Object.fromEntries(text.split('\n').filter((line) => /^[A-Z_]+=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));

/** The config Switchboard loads from this .env, as docker-compose.yml hands it over. */
function composeConfig(env: Record<string, string>) {
  const { SWITCHBOARD_API_KEYS, SWITCHBOARD_ADMIN_KEYS, POSTGRES_PASSWORD } = env;
  return loadConfig({ SWITCHBOARD_CONFIG: undefined, SWITCHBOARD_API_KEYS, SWITCHBOARD_ADMIN_KEYS, DATABASE_URL: `postgresql://switchboard:${POSTGRES_PASSWORD}@postgres:5432/switchboard` }).config;
}

describe('sh docker/make-env.sh', () => {
  it('writes .env from .env.example, each placeholder a random secret of its own, readable by its owner only, and says where the console key is', async () => {
    const { code, stdout } = await makeEnv();
    expect(code).toBe(0);
    const env = variables(envFile());
    expect(Object.keys(env)).toEqual(EXAMPLE_VARIABLES);
    expect(Object.values(env).join('\n')).not.toContain('replace-with-');
    expect(env.SWITCHBOARD_ADMIN_KEYS).toMatch(/^admin=[0-9a-f]{48}$/);
    expect(new Set([env.SWITCHBOARD_ADMIN_KEYS.split('=')[1], env.SWITCHBOARD_API_KEYS.split('=')[1], env.POSTGRES_PASSWORD]).size).toBe(3);
    expect(statSync(join(clone, '.env')).mode & 0o777).toBe(0o600);
    // The first key of the stack is an operator's: it opens the console.
    expect(composeConfig(env).auth.api_keys).toContainEqual({ name: 'admin', key: env.SWITCHBOARD_ADMIN_KEYS.split('=')[1], admin: true });
    expect(stdout).toMatch(/console.*SWITCHBOARD_ADMIN_KEYS/);
  });

  it('refuses to touch an existing .env without --force', async () => {
    writeFileSync(join(clone, '.env'), 'MINE=1\n');
    const { code, stderr } = await makeEnv();
    expect(code).toBe(1);
    expect(stderr).toMatch(/\.env exists.*--force/);
    expect(envFile()).toBe('MINE=1\n');
  });

  it('--force keeps every line the user wrote, secrets included, replaces the placeholders left and adds what .env.example has and .env lacks, saying which', async () => {
    const mine = [
      '# my own settings',
      'SWITCHBOARD_API_KEYS=ci=my-own-ci-key-0123456789,ops=replace-with-a-long-random-key',
      'POSTGRES_PASSWORD=my-existing-db-password',
      'SWITCHBOARD_PORT=9000',
      'OPENAI_API_KEY=sk-mine-0123',
      'SWITCHBOARD_CONFIG_FILE=./my-switchboard.toml',
      '',
    ].join('\n');
    writeFileSync(join(clone, '.env'), mine);
    const { code, stdout } = await makeEnv('--force');
    expect(code).toBe(0);
    const text = envFile();
    const env = variables(text);
    expect(env).toMatchObject({ POSTGRES_PASSWORD: 'my-existing-db-password', SWITCHBOARD_PORT: '9000', OPENAI_API_KEY: 'sk-mine-0123', SWITCHBOARD_CONFIG_FILE: './my-switchboard.toml' });
    expect(text).toContain('# my own settings\n');
    expect(env.SWITCHBOARD_API_KEYS).toMatch(/^ci=my-own-ci-key-0123456789,ops=[0-9a-f]{48}$/);
    expect(env.SWITCHBOARD_ADMIN_KEYS).toMatch(/^admin=[0-9a-f]{48}$/);
    expect(Object.values(env).join('\n')).not.toContain('replace-with-');
    expect(Object.keys(env).sort()).toEqual([...new Set([...EXAMPLE_VARIABLES, 'OPENAI_API_KEY', 'SWITCHBOARD_CONFIG_FILE'])].sort());
    expect(stdout).toMatch(/new random secrets.*SWITCHBOARD_API_KEYS/);
    expect(stdout).toMatch(/added.*SWITCHBOARD_ADMIN_KEYS/);
    expect(() => composeConfig(env)).not.toThrow();

    // Run again: nothing left to do, nothing changed.
    const again = await makeEnv('--force');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to change/);
    expect(envFile()).toBe(text);
  });
});
