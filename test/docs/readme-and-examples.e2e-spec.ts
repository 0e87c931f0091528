/**
 * Every TOML block of the README and of docs/*.md, and every file in examples/, is a config a reader
 * may copy as it stands: each is loaded with the real loader and booted, with the variables it references set.
 * No network: stdio MCP servers find no command (an empty PATH), and external agents, MCP servers
 * and LLM providers are only reached in the background or during a turn.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.loader';
import { assertSafeToListen } from '../../src/security/listen-policy';
import { writeConfigFile } from '../support/config-file';
import { codeBlocks, documentationFiles, ROOT } from './markdown-blocks';
import { startTestApp } from '../support/test-app';
import {
  createTestDatabase,
  deleteRedisKeys,
  type TestDatabase,
  testRedisPrefix,
  testRedisUrl,
} from '../support/test-database';

const EXAMPLES = join(ROOT, 'examples');
/** Examples that are about durable mode boot against this run's Postgres and Redis. */
const DURABLE_EXAMPLES = new Set(['durable-multi-worker.toml']);

interface Sample {
  name: string;
  /** The config's text, and that of files it refers to: read for the variables to set. */
  text: string;
  /** Where the loader reads it from: relative paths in it (manifests, certificates) start at its directory. */
  file: string;
}

/** Every `${VAR}` and `api_key_env` a config names, each set to a value long enough for an API key. */
function referencedVariables(text: string): Record<string, string> {
  const names = [
    ...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g),
    ...text.matchAll(/api_key_env\s*=\s*"([^"]+)"/g),
  ].map((match) => match[1]);
  return Object.fromEntries(names.map((name) => [name, `value-of-${name}-for-tests`]));
}

const documentationSamples: Sample[] = documentationFiles().flatMap(({ path, text }) =>
  codeBlocks(text, 'toml', path).map(({ name, code }) => ({ name, text: code, file: writeConfigFile(code) })),
);
/** The manifests examples/ refers to may reference variables too. */
const manifestsText = readdirSync(join(EXAMPLES, 'subagents'))
  .map((name) => readFileSync(join(EXAMPLES, 'subagents', name), 'utf8'))
  .join('\n');
const exampleSamples: Sample[] = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith('.toml'))
  .map((name) => ({
    name: `examples/${name}`,
    text: readFileSync(join(EXAMPLES, name), 'utf8') + manifestsText,
    file: join(EXAMPLES, name),
  }));

describe('the README, docs/ and examples/', () => {
  let database: TestDatabase | undefined;
  const redisPrefix = testRedisPrefix();
  /** An empty directory as PATH: a stdio MCP server's command (npx ...) is not found, so nothing is downloaded. */
  const emptyPath = mkdtempSync(join(tmpdir(), 'switchboard-no-commands-'));

  afterAll(async () => {
    await database?.drop();
    await deleteRedisKeys(redisPrefix);
  });

  it("have TOML to check: the README's minimal config, the reference of every key, and one example per use", () => {
    const inFile = (path: string) => documentationSamples.filter((sample) => sample.name.startsWith(`${path}:`)).length;
    expect(inFile('README.md')).toBeGreaterThanOrEqual(1);
    expect(inFile('docs/configuration.md')).toBeGreaterThanOrEqual(1);
    expect(documentationSamples.length).toBeGreaterThanOrEqual(5);
    expect(exampleSamples.map((sample) => sample.name).sort()).toEqual([
      'examples/a2a-gateway.toml',
      'examples/durable-multi-worker.toml',
      'examples/llm-agent-with-tools.toml',
      'examples/mcp-gateway-for-an-ide.toml',
    ]);
  });

  it.each([...documentationSamples, ...exampleSamples].map((sample) => [sample.name, sample] as const))(
    '%s loads and boots',
    async (name, sample) => {
      const durable = DURABLE_EXAMPLES.has(name.replace('examples/', ''));
      if (durable) database ??= await createTestDatabase();
      const env = {
        ...referencedVariables(sample.text),
        SWITCHBOARD_CONFIG: sample.file,
        PATH: emptyPath,
        LOG_LEVEL: 'silent',
        ...(durable && {
          DATABASE_URL: database!.url,
          REDIS_URL: testRedisUrl(),
          SWITCHBOARD_REDIS_PREFIX: redisPrefix,
        }),
      };
      const { config } = loadConfig(env);
      assertSafeToListen(config);
      let app: NestFastifyApplication | undefined;
      try {
        const started = await startTestApp(config);
        app = started.app;
        const ready = await fetch(`${started.url}/readyz`);
        expect({ status: ready.status, body: await ready.json() }).toMatchObject({ status: 200 });
        expect((await fetch(`${started.url}/.well-known/agent-card.json`)).status).toBe(200);
        const { agents } = (await (await fetch(`${started.url}/a2a/agents`)).json()) as { agents: { name: string }[] };
        const configured = config.agents.map((agent) => agent.name);
        expect(agents.map((card) => card.name).sort()).toEqual(
          configured.length > 0 ? [...configured].sort() : ['echo'],
        );
      } finally {
        await app?.close();
      }
    },
  );
});
