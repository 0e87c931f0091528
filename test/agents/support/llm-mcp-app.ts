import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MCP_TOOL_SOURCE, type McpToolSource } from '../../../src/mcp-client/mcp-tool-source.interface';
import { stdioServer, toolsListed } from '../../mcp-client/support/mcp-app';
import { EVERYTHING_SERVER } from '../../mcp-client/support/mcp-servers';
import { writeConfigFile } from '../../support/config-file';
import { startTestApp, testConfig } from '../../support/test-app';

/** The service with LLM agent `assistant` (model `model` at `llmBaseUrl`) allowed `tools` of server-everything (stdio), once they are listed. */
export async function startLlmMcpApp(
  llmBaseUrl: string,
  tools: string[],
  model: string,
): Promise<{ app: NestFastifyApplication; url: string }> {
  const toml = `
[outbound]
allow_hosts = ["127.0.0.1"]

[[agents]]
name = "assistant"
tools = ${JSON.stringify(tools)}
[agents.executor]
type = "llm"
base_url = "${llmBaseUrl}"
model = "${model}"
${stdioServer('everything', EVERYTHING_SERVER, ['stdio'])}`;
  const started = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(toml) }));
  await toolsListed(started.app.get<McpToolSource>(MCP_TOOL_SOURCE), tools);
  return started;
}
