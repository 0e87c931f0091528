/**
 * The thinnest proxy the official v2 SDK makes, which Switchboard's `/mcp` builds on: its
 * `createMcpHandler` behind its own Node adapter on `node:http`, offering each tool of one stdio
 * server, forwarded by its v2 client. No authentication, limits, namespacing or logging: the floor
 * under any gateway built on the v2 SDK. As Switchboard does, it keeps built servers for the next
 * request rather than building one per request.
 *
 * Usage: node sdk-proxy.js PORT -- COMMAND [ARGS...]; GET /ready answers once the upstream is connected.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { createServer } from 'node:http';

async function main(): Promise<void> {
  const [port, separator, command, ...args] = process.argv.slice(2);
  if (!port || separator !== '--' || !command) throw new Error('usage: sdk-proxy PORT -- COMMAND [ARGS...]');
  const upstream = new Client({ name: 'sdk-proxy', version: '1.0.0' });
  await upstream.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  const { tools } = await upstream.listTools();
  const schemas = new Map(tools.map((tool) => [tool.name, fromJsonSchema(tool.inputSchema as never)]));

  const idle: McpServer[] = [];
  const build = () => {
    const server = new McpServer({ name: 'sdk-proxy', version: '1.0.0' });
    for (const tool of tools) {
      server.registerTool(
        tool.name,
        { description: tool.description, inputSchema: schemas.get(tool.name) },
        (toolArgs) => upstream.callTool({ name: tool.name, arguments: toolArgs as Record<string, unknown> }),
      );
    }
    server.server.onclose = () => idle.push(server);
    return server;
  };
  const handle = toNodeHandler(
    createMcpHandler(() => idle.pop() ?? build(), { legacy: 'stateless', responseMode: 'auto' }),
  );
  createServer((request, response) => {
    if (request.url === '/ready') return void response.end('ok');
    void handle(request, response);
  }).listen(Number(port), '127.0.0.1');
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
