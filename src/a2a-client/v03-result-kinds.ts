/**
 * v0.3 tells its results apart by `kind`. Some popular A2A servers leave it out, and the SDK's v0.3
 * client then fails every call ("Unknown v0.3 stream event kind"). Where the shape of a result says
 * what it is, a gateway should read it rather than fail the task: this supplies the `kind`, and says
 * so, so the deviation can be logged.
 */

type Result = Record<string, unknown>;

/** The `kind` a v0.3 result of this shape has; undefined when the shape is not unambiguous. */
export function kindOfShape(result: Result): string | undefined {
  if ('artifact' in result) return 'artifact-update';
  if ('parts' in result && 'role' in result) return 'message';
  if ('status' in result && 'id' in result) return 'task';
  if ('status' in result && 'taskId' in result) return 'status-update';
  return undefined;
}

/** `body` (a JSON-RPC response) with its result's `kind` supplied when it lacks one; `onSupplied` is told which. */
function withKind(body: string, onSupplied: (kind: string) => void): string {
  if (!body.includes('"result"')) return body;
  let response: { result?: unknown };
  try {
    response = JSON.parse(body) as { result?: unknown };
  } catch {
    return body;
  }
  const result = response.result;
  if (typeof result !== 'object' || result === null || Array.isArray(result) || 'kind' in result) return body;
  const kind = kindOfShape(result as Result);
  if (!kind) return body;
  onSupplied(kind);
  return JSON.stringify({ ...response, result: { kind, ...result } });
}

/** Each `data:` line of an SSE stream through `withKind`. */
function sseWithKinds(onSupplied: (kind: string) => void): TransformStream<string, string> {
  let pending = '';
  const line = (text: string) =>
    text.startsWith('data:') ? `data: ${withKind(text.slice(5).trimStart(), onSupplied)}` : text;
  return new TransformStream({
    transform(chunk, controller) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      if (lines.length > 0) controller.enqueue(lines.map(line).join('\n') + '\n');
    },
    flush(controller) {
      if (pending) controller.enqueue(line(pending));
    },
  });
}

/** A v0.3 JSON-RPC call: its methods have slashes (`message/send`, `tasks/get`), v1.0's none (`SendMessage`). */
const V03_CALL = /"method":\s*"(message|tasks)\//;

/** `fetchImpl`, with the `kind` of v0.3 JSON-RPC results and stream events supplied where the server left it out. */
export function withResultKinds(fetchImpl: typeof fetch, onSupplied: (kind: string) => void): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.body || typeof init?.body !== 'string' || !V03_CALL.test(init.body)) return response;
    const type = response.headers.get('content-type') ?? '';
    const answer = { status: response.status, statusText: response.statusText, headers: response.headers };
    if (type.startsWith('text/event-stream')) {
      const events = response.body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(sseWithKinds(onSupplied))
        .pipeThrough(new TextEncoderStream());
      return new Response(events, answer);
    }
    if (!type.includes('json')) return response;
    return new Response(withKind(await response.text(), onSupplied), answer);
  };
}
