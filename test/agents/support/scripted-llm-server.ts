import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What one model call answers: streamed tokens, tool calls, an HTTP error, or a pause between tokens. */
export type ScriptedReply =
  | { tokens: string[]; delayMs?: number }
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[] }
  | { status: number; body: string };

export interface RecordedRequest {
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: { role: string; content: string | null; tool_call_id?: string }[];
    tools?: { function: { name: string } }[];
    stream?: boolean;
  };
}

/**
 * An OpenAI-compatible `/v1/chat/completions` endpoint that answers from a script, one reply per
 * call, streamed as the real APIs stream (SSE `data:` chunks, `[DONE]`). The one fake the tests
 * use: no model can run here.
 */
export class ScriptedLlmServer {
  readonly requests: RecordedRequest[] = [];
  private script: ScriptedReply[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(): Promise<ScriptedLlmServer> {
    const server = createServer((request, response) => void self.answer(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const self = new ScriptedLlmServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    return self;
  }

  /** The replies of the next calls, in order. */
  play(...replies: ScriptedReply[]): void {
    this.script = replies;
    this.requests.length = 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    this.requests.push({ headers: request.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
    const reply = this.script.shift();
    if (!reply || request.url !== '/v1/chat/completions') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no scripted reply"}}');
      return;
    }
    if ('status' in reply) {
      response.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>) =>
      response.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`);
    if ('toolCalls' in reply) {
      reply.toolCalls.forEach((call, index) => {
        send({
          tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: call.name, arguments: '' } }],
        });
        // Arguments arrive in pieces, as real providers send them.
        const json = JSON.stringify(call.arguments);
        for (const piece of [json.slice(0, 5), json.slice(5)])
          send({ tool_calls: [{ index, function: { arguments: piece } }] });
      });
    } else {
      for (const token of reply.tokens) {
        if (response.destroyed) return;
        send({ content: token });
        if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      }
    }
    response.end('data: [DONE]\n\n');
  }
}
