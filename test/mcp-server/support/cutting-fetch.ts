import { connectV1, textOf } from './mcp-clients';

/**
 * A fetch that sends `tools/call` to replica A and cuts its answer stream once a progress
 * notification has passed, as a dropped connection would; everything else, the client's resumption
 * (GET with `Last-Event-ID`) included, goes to replica B. `resumedAfter` holds the ids resumed from.
 */
function cuttingFetch(a: string, b: string): { fetch: typeof fetch; resumedAfter: string[] } {
  const resumedAfter: string[] = [];
  const cutting: typeof fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const call = typeof init?.body === 'string' && init.body.includes('"tools/call"');
    const lastEventId = new Headers(init?.headers).get('last-event-id');
    if (lastEventId) resumedAfter.push(lastEventId);
    const response = await fetch(new URL(url.pathname + url.search, call ? a : b), init);
    if (!call || !response.body) return response;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const cut = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        if (decoder.decode(value, { stream: true }).includes('notifications/progress')) {
          await reader.cancel();
          controller.close();
        }
      },
    });
    return new Response(cut, { status: response.status, headers: response.headers });
  };
  return { fetch: cutting, resumedAfter };
}

/**
 * A 2025-era call of agent `slow` (1.x client) whose answer stream, from replica `a`, breaks after
 * its first progress notification: the client resumes it (on `b`) and gets the answer and every
 * chunk once, in order: none lost with the broken stream, none sent twice.
 */
export async function expectResumedCall(a: string, b: string): Promise<void> {
  const route = cuttingFetch(a, b);
  const { client } = await connectV1(b, { fetch: route.fetch });
  const progress: string[] = [];
  const result = await client.callTool(
    { name: 'switchboard_agent_slow', arguments: { message: '0123456789' } },
    undefined,
    {
      onprogress: ({ message }) => progress.push(message ?? ''),
    },
  );
  expect(textOf(result)).toBe('0123456789');
  expect(route.resumedAfter.length).toBeGreaterThanOrEqual(1);
  expect(progress.filter((message) => /^\d\d$/.test(message))).toEqual(['01', '23', '45', '67', '89']);
  await client.close();
}
