import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/config/config-error';
import { loadConfig } from '../../src/config/config.loader';
import { configProblems } from '../support/config-problems';

function writeConfig(toml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'switchboard-config-')), 'switchboard.toml');
  writeFileSync(file, toml);
  return file;
}

describe('loadConfig', () => {
  it('gives a complete embedded-mode config with no file and no environment', () => {
    const { config, file } = loadConfig({ SWITCHBOARD_CONFIG: undefined, HOME: tmpdir() });
    expect(file === undefined || file.endsWith('switchboard.toml')).toBe(true);
    expect(config.server.port).toBe(8080);
    expect(config.server.host).toBe('127.0.0.1');
    expect(config.server.body_limit_bytes).toBe(10 * 1024 * 1024);
    expect(config.database.url).toBeUndefined();
    expect(config.a2a.listen_path).toBe('/a2a');
  });

  it("accepts the OpenFang seed's [[mcp_servers]] and [a2a] shape", () => {
    const file = writeConfig(`
[[mcp_servers]]
name = "github"
timeout_secs = 30
env = ["GITHUB_PERSONAL_ACCESS_TOKEN"]
[mcp_servers.transport]
type = "stdio"
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]

[[mcp_servers]]
name = "remote"
[mcp_servers.transport]
type = "sse"
url = "https://mcp.example.com/api"

[a2a]
enabled = true
listen_path = "/a2a"
[[a2a.external_agents]]
name = "research-agent"
url = "https://research.example.com"
`);
    const { config } = loadConfig({ SWITCHBOARD_CONFIG: file });
    expect(config.mcp_servers).toHaveLength(2);
    expect(config.mcp_servers[0]).toMatchObject({
      name: 'github',
      timeout_secs: 30,
      transport: { type: 'stdio', command: 'npx' },
    });
    expect(config.mcp_servers[1].timeout_secs).toBe(30);
    expect(config.a2a.external_agents[0].name).toBe('research-agent');
  });

  it('names the key and the reason when a value has the wrong type', () => {
    const file = writeConfig('[rate_limit]\nlimit = "lots"\n');
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file }));
    expect(problems).toEqual([expect.stringMatching(/^rate_limit\.limit: .*expected number/)]);
  });

  it('names the key inside an array entry', () => {
    const file = writeConfig('[[mcp_servers]]\nname = "x"\n[mcp_servers.transport]\ntype = "carrier-pigeon"\n');
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file }));
    expect(problems[0]).toMatch(/^mcp_servers\[0\]\.transport\.type: /);
  });

  it("names a key's tool pattern that is not a name", () => {
    const file = writeConfig(
      '[auth]\napi_keys = [{ name = "ci", key = "ci-key-0123456789abcdef", tools = ["mcp_github_*", "rm -rf"] }]\n',
    );
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file }));
    expect(problems).toEqual([expect.stringMatching(/^auth\.api_keys\[0\]\.tools\[1\]: must be a tool or agent name/)]);
  });

  it('refuses two agents whose names make the same MCP tool name (hyphens become underscores)', () => {
    const agent = (name: string) => `[[agents]]\nname = "${name}"\n[agents.executor]\ntype = "echo"\n`;
    const problems = configProblems(() =>
      loadConfig({ SWITCHBOARD_CONFIG: writeConfig(agent('code-reviewer') + agent('code_reviewer')) }),
    );
    expect(problems).toEqual([
      'agents[1].name: agents "code-reviewer" and "code_reviewer" would be the same MCP tool (hyphens become underscores)',
    ]);
  });

  it('rejects unknown keys by name, so typos do not pass silently', () => {
    const file = writeConfig('[server]\nprot = 9000\n');
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file }));
    expect(problems).toEqual(['server.prot: unknown key']);
  });

  it.each([
    [
      'an agent',
      '[[agents]]\nname = "a"\nmodle = "x"\n[agents.executor]\ntype = "echo"\n',
      'agents[0].modle: unknown key',
    ],
    [
      'a skill',
      '[[agents]]\nname = "a"\n[agents.executor]\ntype = "echo"\n[[agents.skills]]\nid = "s"\nname = "S"\ntag = "x"\n',
      'agents[0].skills[0].tag: unknown key',
    ],
    [
      'an MCP transport',
      '[[mcp_servers]]\nname = "m"\n[mcp_servers.transport]\ntype = "sse"\nurl = "https://mcp.example.com/sse"\nheaders = {}\n',
      'mcp_servers[0].transport.headers: unknown key',
    ],
  ])('rejects an unknown key in %s by name', (_, toml, problem) => {
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: writeConfig(toml) }));
    expect(problems).toEqual([problem]);
  });

  it('refuses env_values in an [[mcp_servers]] entry by name: the loader reads those values from the environment', () => {
    const file = writeConfig(
      '[[mcp_servers]]\nname = "github"\nenv_values = { GITHUB_TOKEN = "ghp_from_file" }\n[mcp_servers.transport]\ntype = "stdio"\ncommand = "npx"\n',
    );
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file, GITHUB_TOKEN: 'ghp_from_env' }));
    expect(problems).toEqual(['mcp_servers[0].env_values: unknown key']);
  });

  it('says which environment variable carried a bad value', () => {
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: undefined, PORT: 'eighty' }));
    expect(problems[0]).toMatch(/^server\.port \(from PORT\): /);
  });

  it('refuses a headers timeout longer than the request timeout it is part of', () => {
    expect(
      configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: undefined, SWITCHBOARD_HEADERS_TIMEOUT_MS: '70000' })),
    ).toEqual([
      'server.headers_timeout_ms (from SWITCHBOARD_HEADERS_TIMEOUT_MS): must not exceed server.request_timeout_ms (the headers are part of the request)',
    ]);
  });

  it.each([
    ['DATABASE_URL', 'notaurl', /^database\.url \(from DATABASE_URL\): must be a postgresql:\/\/ or postgres:\/\/ URL/],
    ['DATABASE_URL', 'mysql://root:hunter2@db/app', /^database\.url \(from DATABASE_URL\): must be a postgresql:\/\//],
    ['REDIS_URL', 'localhost:6379', /^redis\.url \(from REDIS_URL\): must be a redis:\/\/ or rediss:\/\/ URL/],
  ])('refuses a malformed %s (%s) like every other URL, without repeating the value', (variable, value, problem) => {
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: undefined, [variable]: value }));
    expect(problems).toEqual([expect.stringMatching(problem)]);
    expect(problems[0]).not.toContain(value);
  });

  it('refuses a malformed store URL written in the file, naming its key', () => {
    const file = writeConfig('[database]\nurl = "db.internal:5432"\n[redis]\nurl = "rediss://cache.internal:6380"\n');
    expect(configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file }))).toEqual([
      expect.stringMatching(/^database\.url: must be a postgresql:\/\//),
    ]);
  });

  it('names the environment variable behind a bad list entry', () => {
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: undefined, SWITCHBOARD_API_KEYS: 'short' }));
    expect(problems[0]).toMatch(/^auth\.api_keys\[0\] \(from SWITCHBOARD_API_KEYS\): .*at least 16 characters/);
  });

  it('refuses the placeholder secrets of .env.example, saying how to make real ones and never repeating them', () => {
    const example = Object.fromEntries(
      readFileSync(join(__dirname, '../../.env.example'), 'utf8')
        .split('\n')
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    // As docker-compose.yml hands them to Switchboard.
    const env = {
      SWITCHBOARD_CONFIG: undefined,
      SWITCHBOARD_API_KEYS: example.SWITCHBOARD_API_KEYS,
      SWITCHBOARD_ADMIN_KEYS: example.SWITCHBOARD_ADMIN_KEYS,
      DATABASE_URL: `postgresql://switchboard:${example.POSTGRES_PASSWORD}@postgres:5432/switchboard`,
    };
    const problems = configProblems(() => loadConfig(env));
    expect(problems).toEqual([
      expect.stringMatching(
        /^auth\.api_keys\[0\](\.key)? \(from SWITCHBOARD_API_KEYS\): the key is a placeholder .*sh docker\/make-env\.sh --force/,
      ),
      expect.stringMatching(
        /^auth\.api_keys\[1\](\.key)? \(from SWITCHBOARD_ADMIN_KEYS\): the key is a placeholder .*sh docker\/make-env\.sh --force/,
      ),
      expect.stringMatching(
        /^database\.url \(from DATABASE_URL\): its password \(POSTGRES_PASSWORD in \.env under docker compose\) is a placeholder .*openssl rand -hex 32/,
      ),
    ]);
    for (const secret of Object.values(example))
      if (secret.startsWith('replace-with-')) expect(problems.join('\n')).not.toContain(secret);
    const real = {
      SWITCHBOARD_API_KEYS: 'client=0123456789abcdef0123',
      SWITCHBOARD_ADMIN_KEYS: 'admin=abcdef0123456789abcd',
      DATABASE_URL: 'postgresql://switchboard:s3cret-pass@postgres:5432/switchboard',
    };
    expect(() => loadConfig({ ...env, ...real })).not.toThrow();
  });

  it('resolves ${VAR} references from the environment and reports unset ones by key', () => {
    const file = writeConfig('[auth]\napi_keys = [{ name = "ci", key = "${CI_KEY}" }]\n');
    const { config } = loadConfig({ SWITCHBOARD_CONFIG: file, CI_KEY: 'a-very-long-secret-key' });
    expect(config.auth.api_keys).toEqual([{ name: 'ci', key: 'a-very-long-secret-key' }]);
    const problems = configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file }));
    expect(problems[0]).toMatch(/^auth\.api_keys\[0\]\.key: references \$\{CI_KEY\}, which is not set/);
  });

  it("reads an LLM agent's API key from the variable it names, and names the agent when it is unset", () => {
    const file = writeConfig(
      '[[agents]]\nname = "llm"\n[agents.executor]\ntype = "llm"\nbase_url = "https://api.example.com/v1"\nmodel = "m"\napi_key_env = "LLM_KEY"\n',
    );
    const { config } = loadConfig({ SWITCHBOARD_CONFIG: file, LLM_KEY: 'sk-secret' });
    expect(config.agents[0].executor).toMatchObject({ type: 'llm', api_key: 'sk-secret' });
    expect(configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file }))).toEqual([
      'agents[0].executor.api_key_env: environment variable LLM_KEY is not set',
    ]);
  });

  it('lets the environment override the file', () => {
    const file = writeConfig('[server]\nport = 9000\n');
    const { config } = loadConfig({
      SWITCHBOARD_CONFIG: file,
      PORT: '9100',
      DATABASE_URL: 'postgresql://db/switchboard',
      REDIS_URL: 'redis://cache:6379',
      SWITCHBOARD_API_KEYS: 'ops=0123456789abcdef01,fedcba98765432100',
    });
    expect(config.server.port).toBe(9100);
    expect(config.database.url).toBe('postgresql://db/switchboard');
    expect(config.redis.url).toBe('redis://cache:6379');
    expect(config.auth.api_keys).toEqual([{ name: 'ops', key: '0123456789abcdef01' }, 'fedcba98765432100']);
  });

  it("adds operator keys (SWITCHBOARD_ADMIN_KEYS) and metrics-only keys (SWITCHBOARD_METRICS_KEYS) to the file's or SWITCHBOARD_API_KEYS' keys", () => {
    const file = writeConfig('[auth]\napi_keys = [{ name = "ci", key = "ci-key-0123456789abcdef" }]\n');
    const extra = {
      SWITCHBOARD_ADMIN_KEYS: 'admin=admin-key-0123456789abcdef',
      SWITCHBOARD_METRICS_KEYS: 'prometheus=metrics-key-0123456789abc',
    };
    const operatorAndScraper = [
      { name: 'admin', key: 'admin-key-0123456789abcdef', admin: true },
      { name: 'prometheus', key: 'metrics-key-0123456789abc', metrics_only: true },
    ];
    expect(loadConfig({ SWITCHBOARD_CONFIG: file, ...extra }).config.auth.api_keys).toEqual([
      { name: 'ci', key: 'ci-key-0123456789abcdef' },
      ...operatorAndScraper,
    ]);
    expect(
      loadConfig({ SWITCHBOARD_CONFIG: file, ...extra, SWITCHBOARD_API_KEYS: 'client=client-key-0123456789ab' }).config
        .auth.api_keys,
    ).toEqual([{ name: 'client', key: 'client-key-0123456789ab' }, ...operatorAndScraper]);
    expect(
      loadConfig({ SWITCHBOARD_CONFIG: undefined, SWITCHBOARD_ADMIN_KEYS: 'admin=admin-key-0123456789abcdef' }).config
        .auth.api_keys,
    ).toEqual([operatorAndScraper[0]]);
  });

  it('names the variable behind a bad operator or metrics key, and wants each named', () => {
    const problems = configProblems(() =>
      loadConfig({
        SWITCHBOARD_CONFIG: undefined,
        SWITCHBOARD_API_KEYS: 'client=client-key-0123456789ab',
        SWITCHBOARD_ADMIN_KEYS: 'admin=short',
        SWITCHBOARD_METRICS_KEYS: 'metrics-key-0123456789abc',
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^auth\.api_keys\[1\]\.key \(from SWITCHBOARD_ADMIN_KEYS\): .*at least 16 characters/),
      expect.stringMatching(
        /^auth\.api_keys\[2\] \(from SWITCHBOARD_METRICS_KEYS\): must be a key, or a table with the name and key \(name=key in /,
      ),
    ]);
    expect(problems.join('\n')).not.toContain('metrics-key-0123456789abc');
  });

  it('refuses a metrics_only key or rule that also grants tools, agents or operator rights', () => {
    const file = writeConfig(
      '[auth]\napi_keys = [{ name = "prometheus", key = "metrics-key-0123456789abc", metrics_only = true, admin = true }]\n[[auth.rules]]\nkeys = ["ci"]\nmetrics_only = true\nagents = ["echo"]\n',
    );
    expect(configProblems(() => loadConfig({ SWITCHBOARD_CONFIG: file }))).toEqual([
      expect.stringMatching(/^auth\.api_keys\[0\]: metrics_only .*reaches \/metrics and nothing else/),
      expect.stringMatching(/^auth\.rules\[0\]: metrics_only .*reaches \/metrics and nothing else/),
    ]);
  });

  it('reports a file that is not TOML', () => {
    const file = writeConfig('[server\nport = ');
    expect(() => loadConfig({ SWITCHBOARD_CONFIG: file })).toThrow(/not valid TOML/);
  });

  it('reports a missing config file named by SWITCHBOARD_CONFIG', () => {
    expect(() => loadConfig({ SWITCHBOARD_CONFIG: '/nonexistent/switchboard.toml' })).toThrow(/does not exist/);
  });

  describe('refuses at load, before any service is built', () => {
    const CI_KEY = 'ci-key-0123456789abcdef';
    const BARE_KEY = 'bare-key-aaaaaaaaaaaaaaaa';
    const withKeys = (keys: string) => () =>
      loadConfig({ SWITCHBOARD_CONFIG: writeConfig(`[auth]\napi_keys = [${keys}]`) });

    it('refuses two keys under one name, including a generated one', () => {
      const build = withKeys(`"${BARE_KEY}", { name = "key-1", key = "${CI_KEY}" }`);
      expect(build).toThrow(ConfigError);
      expect(build).toThrow(/api_keys\[1\].*"key-1"/);
    });

    it('refuses the same key configured twice, without printing it', () => {
      const build = withKeys(`{ name = "a", key = "${CI_KEY}" }, { name = "b", key = "${CI_KEY}" }`);
      expect(build).toThrow(/api_keys\[1\]: the same key is configured twice/);
      expect(build).not.toThrow(new RegExp(CI_KEY));
    });

    it.each([
      'http://hooks.internal',
      '10.0.0.0/33',
      '10/8',
      '*.internal',
      'hooks.internal:0',
      'hooks.internal:99999',
      'user@host',
      'a b',
      '',
    ])('refuses the malformed outbound.allow_hosts entry %p, naming it', (entry) => {
      const load = () =>
        loadConfig({
          SWITCHBOARD_CONFIG: writeConfig(`[outbound]\nallow_hosts = ["hooks.internal", ${JSON.stringify(entry)}]`),
        });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(`outbound.allow_hosts: "${entry}" is not a hostname`);
    });
  });
});
