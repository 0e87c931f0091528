import { loadConfig } from '../config/config.loader';
import { SWITCHBOARD_VERSION } from '../common/version';
import { startupBanner } from './banner';

const config = (env: Record<string, string> = {}) => loadConfig({ SWITCHBOARD_CONFIG: undefined, ...env }).config;

describe('startupBanner', () => {
  it('says an embedded API with no keys is open, and that its tasks live in memory', () => {
    const banner = startupBanner(config(), { role: 'api', url: 'http://127.0.0.1:8080' });
    expect(banner.split('\n')).toEqual([
      `Switchboard ${SWITCHBOARD_VERSION} is listening on http://127.0.0.1:8080`,
      expect.stringMatching(/^ {2}mode {5}EMBEDDED: one process/),
      '  tasks    in memory: lost when this process stops',
      '  turns    run in this process',
      "  catalog  the file's entries; the admin API's in memory: lost when this process stops",
      expect.stringMatching(
        /^ {2}auth {5}OFF: no API keys, every route answers without Authorization \(set SWITCHBOARD_API_KEYS/,
      ),
      '  console  http://127.0.0.1:8080/console',
      '  traces   off (set OTEL_EXPORTER_OTLP_ENDPOINT to export them)',
      expect.stringMatching(/^ {2}config {3}no file/),
    ]);
  });

  it('names a non-loopback address an open API answers on', () => {
    const banner = startupBanner(config({ HOST: '0.0.0.0', SWITCHBOARD_ALLOW_OPEN: 'true' }), {
      role: 'api',
      url: 'http://127.0.0.1:8080',
    });
    expect(banner).toContain(
      'OFF: no API keys, every route answers without Authorization to anyone who can reach 0.0.0.0',
    );
  });

  it("shows where a durable API keeps tasks and turns, never the stores' credentials", () => {
    const durable = config({
      DATABASE_URL: 'postgresql://app:s3cret@db.internal:5432/switchboard',
      REDIS_URL: 'redis://:hunter2@cache.internal:6379',
      SWITCHBOARD_API_KEYS: 'ops=0123456789abcdef01,ci=fedcba98765432100',
      SWITCHBOARD_WORKER_IN_API: 'false',
    });
    const banner = startupBanner(durable, {
      role: 'api',
      url: 'http://127.0.0.1:8080',
      configFile: '/etc/switchboard.toml',
    });
    expect(banner).toContain('mode     durable: Postgres and Redis');
    expect(banner).toContain('tasks    in Postgres at db.internal:5432/switchboard');
    expect(banner).toContain(
      'turns    queued in Redis at cache.internal:6379, run by `switchboard worker` processes only',
    );
    expect(banner).toContain('auth     on: 2 API keys');
    expect(banner).toContain('console  http://127.0.0.1:8080/console (log in with a key granted admin)');
    expect(banner).toContain('config   /etc/switchboard.toml');
    expect(banner).not.toMatch(/s3cret|hunter2|app@/);
  });

  it("gives a worker's probe URL, or says it has none", () => {
    const durable = config({ DATABASE_URL: 'postgresql://db/switchboard', REDIS_URL: 'redis://cache:6379' });
    expect(startupBanner(durable, { role: 'worker', healthUrl: 'http://127.0.0.1:8081/readyz' })).toMatch(
      /worker is running\n.*\n {2}tasks {4}in Postgres at db\/switchboard\n {2}turns {4}queued in Redis at cache:6379, run here \(32 at a time\)\n {2}catalog {2}the file's entries, and the admin API's in Postgres \(SIGHUP reloads the file\)\n {2}probes {3}http:\/\/127\.0\.0\.1:8081\/readyz/,
    );
    expect(startupBanner(durable, { role: 'worker' })).toContain('probes   none (set SWITCHBOARD_WORKER_HEALTH_PORT');
  });
});
