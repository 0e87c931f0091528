import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MCP_TOOL_SOURCE, type McpTool, type McpToolSource } from '../../../src/mcp-client/mcp-tool-source.interface';
import type { McpServersView } from '../../../src/mcp-client/mcp-servers.view';
import { writeConfigFile } from '../../support/config-file';
import { eventually } from '../../support/eventually';
import { bearer, startTestApp, testConfig } from '../../support/test-app';

export interface McpTestApp {
  app: NestFastifyApplication;
  url: string;
  tools: McpToolSource;
}

/** The whole service, in embedded mode, with `[[mcp_servers]]` (and whatever else) from `toml`; `${VAR}`s come from `env`. */
export async function startMcpApp(toml: string, env: Record<string, string> = {}): Promise<McpTestApp> {
  const { app, url } = await startTestApp(testConfig({ ...env, SWITCHBOARD_CONFIG: writeConfigFile(toml) }));
  return { app, url, tools: app.get(MCP_TOOL_SOURCE) };
}

/** Waits until the tool source lists every one of `names`. */
export function toolsListed(tools: McpToolSource, names: string[], timeoutMs = 15_000): Promise<McpTool[]> {
  return eventually(
    async () => tools.list(),
    (listed) => names.every((name) => listed.some((tool) => tool.name === name)),
    timeoutMs,
  );
}

/** `[[mcp_servers]]` for a stdio server run by `node`. */
export function stdioServer(name: string, script: string, args: string[] = [], extra = ''): string {
  return `
[[mcp_servers]]
name = "${name}"
${extra}
[mcp_servers.transport]
type = "stdio"
command = "${process.execPath}"
args = ${JSON.stringify([script, ...args])}
`;
}

/** `[[mcp_servers]]` for a server over Streamable HTTP at `url`; `extra` goes in its transport table (headers). */
export function httpMcpServer(
  name: string,
  url: string,
  { timeoutSecs = 5, extra = '' }: { timeoutSecs?: number; extra?: string } = {},
): string {
  return `
[[mcp_servers]]
name = "${name}"
timeout_secs = ${timeoutSecs}
[mcp_servers.transport]
type = "http"
url = "${url}"
${extra}
`;
}

/** The text of a tool result's first content block. */
export function firstText(result: { content?: unknown }): string {
  const [first] = (result.content ?? []) as { type: string; text?: string }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

/** `GET /api/mcp/servers`, as an API client sees it. */
export async function serversView(url: string): Promise<McpServersView> {
  const response = await fetch(`${url}/api/mcp/servers`, { headers: bearer() });
  if (response.status !== 200) throw new Error(`GET /api/mcp/servers answered ${response.status}`);
  return (await response.json()) as McpServersView;
}

/** Waits until GET /api/mcp/servers shows `server` in `state`. */
export function serverState(url: string, server: string, state: string, timeoutMs = 15_000): Promise<McpServersView> {
  return eventually(
    () => serversView(url),
    (view) => view.configured.find((entry) => entry.name === server)?.status.state === state,
    timeoutMs,
  );
}
