import { bearer } from '../../support/test-app';

/** A stream read in the background: its events as they come, and how it ended. */
export interface Followed<T> {
  events: T[];
  /** Resolves once the first event has arrived. */
  started: Promise<void>;
  /** Resolves with the error that ended the stream, or undefined when it ended without one. */
  ended: Promise<Error | undefined>;
}

export function follow<T>(stream: AsyncIterable<T>): Followed<T> {
  const events: T[] = [];
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const ended = (async () => {
    try {
      for await (const event of stream) {
        events.push(event);
        markStarted();
      }
      return undefined;
    } catch (error) {
      return error as Error;
    } finally {
      markStarted();
    }
  })();
  return { events, started, ended };
}

/** The `data:` payloads of an SSE response, parsed as JSON, as they arrive. */
async function* sseData(response: Response): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      if (data) yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}

/** A POST answered with SSE, for the dialects the SDK clients do not speak (v0.3 JSON-RPC, the seeds' REST route). */
export async function* postSse(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): AsyncGenerator<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...bearer(), ...headers },
    body: JSON.stringify(body),
  });
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    throw new Error(`expected an SSE answer, got HTTP ${response.status}: ${await response.text()}`);
  }
  yield* sseData(response);
}
