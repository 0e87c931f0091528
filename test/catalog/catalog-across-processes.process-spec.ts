/**
 * The catalog across real processes sharing Postgres and Redis: a change made through one API
 * replica is applied by the other and by a worker (each logs the revision it applied); SIGHUP
 * re-reads the file, and a file that does not load changes nothing and shows in /readyz; a process
 * whose SWITCHBOARD_CATALOG_KEY cannot open the stored secrets refuses to boot.
 */
import { writeFileSync } from 'node:fs';
import { OPERATOR_KEY, OPERATOR_KEYS, OPERATOR_RULE_TOML } from '../console/support/operator-key';
import { adminCall } from '../operator/support/admin-client';
import { writeConfigFile } from '../support/config-file';
import type { Json } from '../support/json';
import { type ServiceProcess, ServiceProcesses } from '../support/service-processes';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { bearer } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';

const CATALOG_KEY = 'catalog-key-for-tests-0123456789abcdef';
const SECRET = 'sealed-secret-of-the-process-test-000001';
const EXTRA_AGENT_TOML = `
[[agents]]
name = "added-by-file"
[agents.executor]
type = "echo"
`;

describe('catalog across API replicas and a worker', () => {
  let database: TestDatabase;
  let redisPrefix: string;
  let configFile: string;
  let services: ServiceProcesses;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let worker: ServiceProcess;
  const env = () => ({
    SWITCHBOARD_CONFIG: configFile,
    SWITCHBOARD_API_KEYS: OPERATOR_KEYS,
    SWITCHBOARD_CATALOG_KEY: CATALOG_KEY,
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    SWITCHBOARD_REDIS_PREFIX: redisPrefix,
    LOG_LEVEL: 'info',
  });
  const post = (service: ServiceProcess, path: string, body: Json) =>
    fetch(`${service.baseUrl}/api/admin${path}`, {
      method: 'POST',
      headers: { ...bearer(OPERATOR_KEY), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const agentNames = async (service: ServiceProcess) =>
    ((await adminCall(service.baseUrl, '/api/admin/catalog', { key: OPERATOR_KEY })).body.entries.agents as Json[]).map(
      ({ name }) => name as string,
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    redisPrefix = testRedisPrefix();
    configFile = writeConfigFile(`${OPERATOR_RULE_TOML}\n${TEST_AGENTS_TOML}`);
    services = new ServiceProcesses(env());
    [a, b, worker] = await Promise.all([services.api('a'), services.api('b'), services.worker('worker')]);
  });

  afterAll(async () => {
    await services?.stopAll();
    await deleteRedisKeys(redisPrefix);
    await database?.drop();
  });

  it('applies a change made on one replica on the other and on the worker', () =>
    services.explain(async () => {
      const created = await post(a, '/mcp-servers', {
        name: 'docs',
        transport: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { authorization: SECRET } },
      });
      expect(created.status).toBe(201);
      const revision = String(
        ((await adminCall(a.baseUrl, '/api/admin/catalog', { key: OPERATOR_KEY })).body as Json).revision,
      );
      await Promise.all([a, b, worker].map((service) => service.logged('catalog applied', `"revision":${revision}`)));
      for (const service of [a, b, worker]) expect(service.output).not.toContain(SECRET);
    }));

  it('re-reads the file on SIGHUP, and keeps the last good catalog when the file does not load', () =>
    services.explain(async () => {
      writeFileSync(configFile, `${OPERATOR_RULE_TOML}\n${TEST_AGENTS_TOML}\n${EXTRA_AGENT_TOML}`);
      process.kill(a.pid, 'SIGHUP');
      await a.logged('config file reloaded');
      await a.logged('catalog applied');
      expect(await agentNames(a)).toContain('added-by-file');

      writeFileSync(configFile, `${OPERATOR_RULE_TOML}\n[[agents]]\nname = "broken"\n`);
      process.kill(a.pid, 'SIGHUP');
      await a.logged('catalog change refused', 'agents[');
      expect(await agentNames(a)).toContain('added-by-file');
      const readiness = await fetch(`${a.baseUrl}/readyz`);
      expect(readiness.status).toBe(200);
      const { checks } = (await readiness.json()) as Json;
      expect(checks.catalog).toEqual({ status: 'down', error: expect.stringContaining('agents[') });
      expect(checks.catalog.error).toContain('the last good catalog stays in use');
    }));

  it('re-reads a watched file when it changes', async () => {
    const watchedFile = writeConfigFile(`${OPERATOR_RULE_TOML}\n[catalog]\nwatch_file = true\n${TEST_AGENTS_TOML}`);
    const watching = new ServiceProcesses({ ...env(), SWITCHBOARD_CONFIG: watchedFile });
    try {
      const service = await watching.api('watching');
      writeFileSync(
        watchedFile,
        `${OPERATOR_RULE_TOML}\n[catalog]\nwatch_file = true\n${TEST_AGENTS_TOML}\n${EXTRA_AGENT_TOML}`,
      );
      await service.logged('config file reloaded');
      await service.logged('catalog applied');
      expect(await agentNames(service)).toContain('added-by-file');
    } finally {
      await watching.stopAll();
    }
  });

  it('refuses to boot when SWITCHBOARD_CATALOG_KEY cannot open the stored secrets', async () => {
    writeFileSync(configFile, `${OPERATOR_RULE_TOML}\n${TEST_AGENTS_TOML}`);
    const other = new ServiceProcesses({ ...env(), SWITCHBOARD_CATALOG_KEY: 'another-catalog-key-0123456789abcdef' });
    try {
      await expect(other.api('wrong-key')).rejects.toThrow(
        /mcp_servers\.docs\.transport\.headers\.authorization: cannot be decrypted/,
      );
    } finally {
      await other.stopAll();
    }
  });
});
