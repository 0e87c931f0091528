import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.loader';
import { configProblems } from '../support/config-problems';

const VENTAS = {
  type: 'subagent',
  id: 'ventas-core',
  name: 'Ventas Core',
  a2a: { agentCardUri: 'https://ventas.example.com/.well-known/agent-card.json' },
  security: { auth: { type: 'oauth2', token: '${VENTAS_TOKEN}', scopes: ['message:send'] } },
  mcpBridge: { tools: [{ name: 'subagent_start' }, { name: 'subagent_send' }, { name: 'subagent_cancel' }] },
  taskResourceTemplate: 'a2a://task/{taskId}',
};

function directory(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-a2a-'));
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
}

function load(dir: string, toml: string, env: Record<string, string> = {}) {
  writeFileSync(join(dir, 'switchboard.toml'), toml);
  return loadConfig({ SWITCHBOARD_CONFIG: join(dir, 'switchboard.toml'), ...env }).config;
}

describe('external agents in the config', () => {
  it("accepts the OpenFang seed's shape and fills the defaults", () => {
    const dir = directory({});
    const [agent] = load(
      dir,
      '[[a2a.external_agents]]\nname = "research-agent"\nurl = "https://research.example.com"\n',
    ).a2a.external_agents;
    expect(agent).toMatchObject({
      name: 'research-agent',
      timeout_secs: 30,
      task_timeout_secs: 600,
      trusted: false,
      headers: {},
    });
    expect(agent.card_path).toBeUndefined();
  });

  it('reads a client certificate from its files, relative to the config file', () => {
    const dir = directory({ 'client.pem': 'CERT', 'client.key': 'KEY' });
    const [agent] = load(
      dir,
      '[[a2a.external_agents]]\nname = "m"\nurl = "https://m.example.com"\ntls = { cert_file = "client.pem", key_file = "client.key" }\n',
    ).a2a.external_agents;
    expect(agent.client_certificate).toEqual({ cert: 'CERT', key: 'KEY' });
  });

  it('names a certificate file that cannot be read', () => {
    const dir = directory({});
    expect(
      configProblems(() =>
        load(
          dir,
          '[[a2a.external_agents]]\nname = "m"\nurl = "https://m.example.com"\ntls = { cert_file = "gone.pem", key_file = "gone.key" }\n',
        ),
      ),
    ).toEqual([
      expect.stringMatching(/^a2a\.external_agents\[0\]\.tls\.cert_file: cannot read .*gone\.pem: ENOENT/),
      expect.stringMatching(/^a2a\.external_agents\[0\]\.tls\.key_file: cannot read/),
    ]);
  });

  it('refuses names that clash or point nowhere', () => {
    const dir = directory({});
    const problems = configProblems(() =>
      load(
        dir,
        `[[a2a.external_agents]]
name = "twin"
url = "https://a.example.com"
[[a2a.external_agents]]
name = "twin"
url = "https://b.example.com"
[[a2a.external_agents]]
name = "local"
url = "https://c.example.com"
[[agents]]
name = "local"
delegates = ["nobody"]
[agents.executor]
type = "a2a"
agent = "missing"
`,
      ),
    );
    expect(problems).toEqual([
      'a2a.external_agents[1].name: duplicate external agent name "twin"',
      'a2a.external_agents[2].name: "local" is also the name of a hosted agent',
      'agents[0].delegates[0]: no external agent named "nobody"',
      'agents[0].executor.agent: no external agent named "missing"',
    ]);
  });
});

describe('ARDF subagent manifests', () => {
  it('adds an external agent per manifest, with its credentials resolved and the manifest kept as written', () => {
    const dir = directory({
      'ventas.json': VENTAS,
      'finanzas.json': {
        ...VENTAS,
        id: 'finanzas',
        security: { auth: { type: 'apiKey', in: 'header', name: 'X-API-Key', value: 'k-${FIN_KEY}' } },
      },
      'notes.txt': 'x',
    });
    const agents = load(dir, 'a2a.subagent_manifests = ["*.json"]\n', { VENTAS_TOKEN: 'secret-token', FIN_KEY: 'fin' })
      .a2a.external_agents;
    expect(agents.map((agent) => [agent.name, agent.url, agent.card_path, agent.auth])).toEqual([
      ['finanzas', VENTAS.a2a.agentCardUri, '', { type: 'api_key', header: 'X-API-Key', value: 'k-fin' }],
      ['ventas-core', VENTAS.a2a.agentCardUri, '', { type: 'bearer', token: 'secret-token' }],
    ]);
    expect(agents[1].manifest).toEqual(VENTAS);
  });

  it('stops the boot naming the file and each field the schema refuses', () => {
    const dir = directory({
      'bad.json': { ...VENTAS, type: 'agent', a2a: {}, mcpBridge: { tools: [{ name: 'subagent_send' }] } },
    });
    const problems = configProblems(() => load(dir, 'a2a.subagent_manifests = ["bad.json"]\n', { VENTAS_TOKEN: 't' }));
    const file = join(dir, 'bad.json');
    expect(problems).toEqual(
      expect.arrayContaining([
        `a2a.subagent_manifests: ${file}: /type: must be "subagent"`,
        `a2a.subagent_manifests: ${file}: /a2a/agentCardUri: is required`,
        expect.stringContaining(`a2a.subagent_manifests: ${file}: /mcpBridge/tools: must contain`),
      ]),
    );
  });

  it('names a manifest that is not JSON, an unset variable, and a pattern that matches nothing', () => {
    const dir = directory({ 'broken.json': '{ not json', 'ventas.json': VENTAS });
    const problems = configProblems(() =>
      load(dir, 'a2a.subagent_manifests = ["broken.json", "ventas.json", "none/*.json"]\n'),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^a2a\.subagent_manifests: .*broken\.json: not a readable JSON file/),
      expect.stringMatching(
        /^a2a\.subagent_manifests: .*ventas\.json: security\.auth\.token: references \$\{VENTAS_TOKEN\}, which is not set/,
      ),
      'a2a.subagent_manifests: "none/*.json" matches no file',
    ]);
  });

  it('refuses a manifest whose id an external agent already has', () => {
    const dir = directory({ 'ventas.json': VENTAS });
    const problems = configProblems(() =>
      load(
        dir,
        'a2a.subagent_manifests = ["ventas.json"]\n[[a2a.external_agents]]\nname = "ventas-core"\nurl = "https://v.example.com"\n',
        { VENTAS_TOKEN: 't' },
      ),
    );
    expect(problems).toEqual([
      'a2a.subagent_manifests: manifest "ventas-core": duplicate external agent name "ventas-core"',
    ]);
  });
});
