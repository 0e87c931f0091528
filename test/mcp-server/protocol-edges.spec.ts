/**
 * `/mcp` at the edges of the protocol, embedded: answers to input a conforming client would not
 * send (bodies that are not JSON or not UTF-8, batches under versions that removed them, bad
 * `initialize` and `logging/setLevel` params), agent tool names, and a broken answer stream
 * resumed. Raw requests where the official clients cannot express the input.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { request as httpRequest } from 'node:http';
import { writeConfigFile } from '../support/config-file';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import { TEST_AGENTS_TOML } from '../support/test-agents';
import { expectResumedCall } from './support/cutting-fetch';
import { connectV1, connectV2, textOf } from './support/mcp-clients';
import { rawMcp, rpc } from './support/raw-mcp';

const HYPHENATED_AGENT_TOML = `
[[agents]]
name = "code-reviewer"
description = "Reviews (echoes) code"
[agents.executor]
type = "echo"
`;

describe('/mcp at the edges of the protocol', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startTestApp(
      testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(TEST_AGENTS_TOML + HYPHENATED_AGENT_TOML) }),
    ));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('answers a body that is not JSON with a -32700 Parse error', async () => {
    const response = await rawMcp(url, 'POST', '{"jsonrpc":');
    expect(response.status).toBe(400);
    expect(response.message).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('answers a body that is not valid UTF-8 with -32700 saying so', async () => {
    const response = await rawBytes(
      url,
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"}}'),
      ]),
    );
    expect(response.status).toBe(400);
    expect(response.message).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'request body is not valid UTF-8' },
    });
  });

  it.each(['2025-06-18', '2025-11-25'])(
    'refuses a JSON-RPC batch under %s (batching was removed in 2025-06-18)',
    async (version) => {
      const batch = `[${rpc('tools/list', undefined, 1)},${rpc('ping', undefined, 2)}]`;
      const response = await rawMcp(url, 'POST', batch, { 'mcp-protocol-version': version });
      expect(response.status).toBe(400);
      expect(response.message).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringContaining(version) },
      });
    },
  );

  it('still serves a batch under 2025-03-26, which had them', async () => {
    const batch = `[${rpc('tools/list', undefined, 1)},${rpc('ping', undefined, 2)}]`;
    const response = await rawMcp(url, 'POST', batch, { 'mcp-protocol-version': '2025-03-26' });
    expect(response.status).toBe(200);
    expect(response.body).toContain('"tools"');
  });

  it.each([
    [
      'initialize without protocolVersion',
      'initialize',
      { capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      'protocolVersion',
    ],
    ['initialize without clientInfo', 'initialize', { protocolVersion: '2025-11-25', capabilities: {} }, 'clientInfo'],
    ['logging/setLevel with an unknown level', 'logging/setLevel', { level: 'loud' }, 'level'],
  ])('answers %s with a short -32602 naming the field', async (_label, method, params, field) => {
    const response = await rawMcp(url, 'POST', rpc(method, params), { 'mcp-protocol-version': '2025-11-25' });
    expect(response.message?.error?.code).toBe(-32602);
    expect(response.message?.error?.message).toContain(field);
    expect(response.message?.error?.message.length).toBeLessThan(200);
  });

  describe("an agent's tool name", () => {
    it("follows the seeds' rule (hyphens become underscores) in the list, for clients of both eras", async () => {
      const { client } = await connectV1(url);
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('switchboard_agent_code_reviewer');
      expect(names).not.toContain('switchboard_agent_code-reviewer');
      expect(
        textOf(await client.callTool({ name: 'switchboard_agent_code_reviewer', arguments: { message: 'review me' } })),
      ).toBe('review me');
      await client.close();
      const modern = await connectV2(url);
      expect((await modern.listTools()).tools.map((tool) => tool.name)).toContain('switchboard_agent_code_reviewer');
      await modern.close();
    });

    it('keeps the former name (hyphens kept) callable, unlisted, for clients that call it by name', async () => {
      const { client } = await connectV1(url);
      expect(
        textOf(await client.callTool({ name: 'switchboard_agent_code-reviewer', arguments: { message: 'old name' } })),
      ).toBe('old name');
      await client.close();
      const modern = await connectV2(url);
      expect(
        textOf(
          await modern.callTool({
            name: 'switchboard_agent_code-reviewer',
            arguments: { message: 'old name, new era' },
          }),
        ),
      ).toBe('old name, new era');
      await modern.close();
    });
  });

  it('resumes a broken answer stream with Last-Event-ID, missing no event', async () => {
    await expectResumedCall(url, url);
  });
});

/** A POST of exact bytes (Node's client would re-encode a string). */
function rawBytes(baseUrl: string, body: Buffer): ReturnType<typeof rawMcp> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      new URL('/mcp', baseUrl),
      {
        method: 'POST',
        headers: {
          accept: 'application/json, text/event-stream',
          'content-type': 'application/json',
          'content-length': body.length,
          ...bearer(),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, message: JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
