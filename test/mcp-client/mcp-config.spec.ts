import { loadConfig } from '../../src/config/config.loader';
import { writeConfigFile } from '../support/config-file';
import { configProblems } from '../support/config-problems';

const problemsOf = (toml: string, env: Record<string, string> = {}) =>
  configProblems(() => loadConfig({ ...env, SWITCHBOARD_CONFIG: writeConfigFile(toml) }));

const stdio = (name: string, command: string) => `
[[mcp_servers]]
name = "${name}"
[mcp_servers.transport]
type = "stdio"
command = "${command}"
`;

describe('[[mcp_servers]] configuration', () => {
  it.each(['../bin/server', '/opt/tools/../../bin/sh', 'bin/..'])(
    'rejects the stdio command %s, which climbs with ".."',
    (command) => {
      expect(problemsOf(stdio('x', command))).toEqual([
        'mcp_servers[0].transport.command: must not contain a ".." path segment',
      ]);
    },
  );

  it.each(['npx', '/usr/local/bin/mcp-server', './servers/my..server'])('accepts the stdio command %s', (command) => {
    expect(problemsOf(stdio('x', command))).toEqual([]);
  });

  it("resolves a stdio server's PATH and whitelisted variables from the environment at load, leaving out unset ones", () => {
    const toml = stdio('github', 'npx').replace(
      '[mcp_servers.transport]',
      'env = ["GITHUB_TOKEN", "NOT_SET"]\n[mcp_servers.transport]',
    );
    const { config } = loadConfig({
      PATH: '/usr/bin:/bin',
      GITHUB_TOKEN: 'ghp_x',
      DATABASE_SECRET: 's',
      SWITCHBOARD_CONFIG: writeConfigFile(toml),
    });
    expect(config.mcp_servers[0].env).toEqual(['GITHUB_TOKEN', 'NOT_SET']);
    expect(config.mcp_servers[0].env_values).toEqual({ PATH: '/usr/bin:/bin', GITHUB_TOKEN: 'ghp_x' });
  });

  it('rejects two servers with the same name', () => {
    expect(problemsOf(stdio('twice', 'npx') + stdio('twice', 'node'))).toEqual([
      'mcp_servers[1].name: duplicate MCP server name "twice"',
    ]);
  });

  it('takes Streamable HTTP servers with headers whose values come from the environment', () => {
    const toml = `
[[mcp_servers]]
name = "remote"
[mcp_servers.transport]
type = "http"
url = "https://mcp.example.com/mcp"
headers = { Authorization = "Bearer \${REMOTE_TOKEN}", "X-Team" = "core" }
`;
    const { config } = loadConfig({ REMOTE_TOKEN: 'abc', SWITCHBOARD_CONFIG: writeConfigFile(toml) });
    expect(config.mcp_servers[0]).toEqual({
      name: 'remote',
      timeout_secs: 30,
      env: [],
      transport: {
        type: 'http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer abc', 'X-Team': 'core' },
      },
    });
    expect(problemsOf(toml)).toEqual([
      'mcp_servers[0].transport.headers.Authorization: references ${REMOTE_TOKEN}, which is not set in the environment',
    ]);
  });
});
