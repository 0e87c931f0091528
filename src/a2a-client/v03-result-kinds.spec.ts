import { kindOfShape, withResultKinds } from './v03-result-kinds';

const V03_SEND = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: {} });

/** A fetch answering `body` as `type`, delivered in `chunks` pieces. */
function answering(body: string, type: string, chunks = 1): typeof fetch {
  const size = Math.ceil(body.length / chunks);
  const pieces = Array.from({ length: chunks }, (_, i) => body.slice(i * size, (i + 1) * size));
  return async () =>
    new Response(
      new ReadableStream({ start: (c) => (pieces.forEach((p) => c.enqueue(new TextEncoder().encode(p))), c.close()) }),
      {
        headers: { 'content-type': type },
      },
    );
}

describe('kindOfShape', () => {
  it.each([
    [{ id: 't', contextId: 'c', status: { state: 'completed' } }, 'task'],
    [{ messageId: 'm', role: 'agent', parts: [] }, 'message'],
    [{ taskId: 't', artifact: { parts: [] } }, 'artifact-update'],
    [{ taskId: 't', status: { state: 'working' }, final: false }, 'status-update'],
    [{ something: 'else' }, undefined],
  ])('reads %j as %s', (result, kind) => {
    expect(kindOfShape(result)).toBe(kind);
  });
});

describe('withResultKinds', () => {
  it('supplies the kind of a v0.3 JSON-RPC result that has none, and says so', async () => {
    const supplied: string[] = [];
    const fetchImpl = withResultKinds(
      answering(
        JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 't', status: { state: 'completed' } } }),
        'application/json',
      ),
      (kind) => supplied.push(kind),
    );
    const body = (await (await fetchImpl('http://agent/', { method: 'POST', body: V03_SEND })).json()) as {
      result: { kind: string };
    };
    expect(body.result.kind).toBe('task');
    expect(supplied).toEqual(['task']);
  });

  it('supplies the kinds of stream events, whatever the chunks', async () => {
    const events = [
      { id: 't', status: { state: 'submitted' } },
      { taskId: 't', artifact: { parts: [] } },
      { taskId: 't', status: { state: 'completed' }, final: true },
    ];
    const sse = events.map((result) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n\n`).join('');
    const fetchImpl = withResultKinds(answering(sse, 'text/event-stream', 7), () => undefined);
    const text = await (await fetchImpl('http://agent/', { method: 'POST', body: V03_SEND })).text();
    const kinds = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)).result.kind);
    expect(kinds).toEqual(['task', 'artifact-update', 'status-update']);
  });

  it('leaves a result that has its kind, and v1.0 calls, as they are', async () => {
    const withKind = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { kind: 'message', role: 'agent', parts: [] } });
    expect(
      await (
        await withResultKinds(answering(withKind, 'application/json'), () => undefined)('http://agent/', {
          method: 'POST',
          body: V03_SEND,
        })
      ).text(),
    ).toBe(withKind);
    const v1 = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 't', status: {} } });
    const call = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: {} });
    expect(
      await (
        await withResultKinds(answering(v1, 'application/json'), () => undefined)('http://agent/', {
          method: 'POST',
          body: call,
        })
      ).text(),
    ).toBe(v1);
  });
});
