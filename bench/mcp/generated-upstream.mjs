/**
 * An MCP stdio server for `bench:mcp -- --mode catalog`: `echo` (answering `Echo: <message>`, as
 * server-everything's does) plus N-1 generated tools with input schemas of a few properties each,
 * as a real API's catalog has. Usage: node generated-upstream.mjs <N>.
 * Built on the 1.x SDK's low-level `Server`: the catalog is plain JSON Schema, and it starts fast.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const toolCount = Number(process.argv[2] ?? 1);
if (!Number.isInteger(toolCount) || toolCount < 1)
  throw new Error(`tool count must be a positive integer, got ${process.argv[2]}`);

const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'archive', 'export'];
const NOUNS = [
  'issue',
  'user',
  'invoice',
  'document',
  'order',
  'ticket',
  'project',
  'comment',
  'repository',
  'payment',
];

const echo = {
  name: 'echo',
  description: 'Echoes back the input',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'Message to echo' } },
    required: ['message'],
  },
};

/** The i-th generated tool: a verb on a noun, with an id, paging, a field list and a mode. */
function generatedTool(i) {
  const verb = VERBS[i % VERBS.length];
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length];
  return {
    name: `${verb}_${noun}_${i}`,
    description: `${verb[0].toUpperCase()}${verb.slice(1)} a ${noun} of the workspace; returns the ${noun} as JSON, with only the fields asked for.`,
    inputSchema: {
      type: 'object',
      properties: {
        [`${noun}_id`]: { type: 'string', description: `The ${noun}'s identifier`, pattern: '^[a-z0-9-]{1,64}$' },
        limit: { type: 'integer', description: 'Most results to return', minimum: 1, maximum: 100, default: 20 },
        fields: { type: 'array', description: 'Fields to include', items: { type: 'string' }, maxItems: 20 },
        mode: { type: 'string', enum: ['summary', 'full', 'raw'], description: 'How much detail to return' },
        labels: { type: 'object', description: 'Labels to filter by', additionalProperties: { type: 'string' } },
      },
      required: [`${noun}_id`],
      additionalProperties: false,
    },
  };
}

const tools = [echo, ...Array.from({ length: toolCount - 1 }, (_, i) => generatedTool(i + 1))];

const server = new Server({ name: 'generated-upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
  if (params.name === 'echo') return { content: [{ type: 'text', text: `Echo: ${params.arguments?.message}` }] };
  return { content: [{ type: 'text', text: JSON.stringify({ tool: params.name, arguments: params.arguments }) }] };
});
await server.connect(new StdioServerTransport());
