import { bearer } from '../../support/test-app';
import type { Json } from '../../support/json';

/** An admin API caller: GET or POST with a bearer key (or other headers), answering status and JSON body. */
export async function adminCall(
  url: string,
  path: string,
  {
    method = 'GET',
    headers = {} as Record<string, string>,
    key,
  }: { method?: string; headers?: Record<string, string>; key?: string } = {},
): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${url}${path}`, { method, headers: { ...(key && bearer(key)), ...headers } });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
}

/** A blocking A2A v1.0 SendMessage to `agent` as the holder of `key`; answers the JSON-RPC result (the task). */
export async function sendMessage(
  url: string,
  agent: string,
  key: string,
  text: string,
  configuration: Json = {},
): Promise<Json> {
  const response = await fetch(`${url}/a2a/agents/${agent}`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] }, configuration },
    }),
  });
  const body = (await response.json()) as Json;
  if (!body.result?.task) throw new Error(`SendMessage answered ${JSON.stringify(body)}`);
  return body.result.task;
}

/** An open SSE response whose `data:` events are read one by one as JSON. */
export class SseReader {
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
  ) {
    this.reader = response.body!.getReader();
  }

  /** Opens the stream: resolves once its headers are in (the server is listening from then on). */
  static async open(url: string, headers: Record<string, string>): Promise<SseReader> {
    const abort = new AbortController();
    const response = await fetch(url, { headers, signal: abort.signal });
    return new SseReader(response, abort);
  }

  /** The next event's data for which `accept` holds, the others skipped; fails after `timeoutMs`. */
  async next(accept: (data: Json) => boolean, timeoutMs = 10_000): Promise<Json> {
    const deadline = setTimeout(() => this.abort.abort(), timeoutMs);
    try {
      for (;;) {
        const end = this.buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = this.buffer.slice(0, end);
          this.buffer = this.buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data && accept(JSON.parse(data) as Json)) return JSON.parse(data) as Json;
          continue;
        }
        const { value, done } = await this.reader.read();
        if (done) throw new Error('the event stream ended');
        this.buffer += this.decoder.decode(value, { stream: true });
      }
    } finally {
      clearTimeout(deadline);
    }
  }

  close(): void {
    this.abort.abort();
  }
}
