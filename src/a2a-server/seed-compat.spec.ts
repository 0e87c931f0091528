import { normalizeSeedRequest } from './seed-compat';

describe('normalizeSeedRequest', () => {
  it('rewrites PocketPaw\u2019s body into v0.3: kind-tagged parts, a message id, camelCase options', () => {
    const normalized = normalizeSeedRequest({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: {
        message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        configuration: { accepted_output_modes: ['text/plain'] },
      },
    }) as { params: { message: Record<string, unknown>; configuration: Record<string, unknown> } };
    expect(normalized.params.message).toEqual({
      kind: 'message',
      messageId: expect.any(String),
      role: 'user',
      parts: [{ kind: 'text', text: 'hi' }],
    });
    expect(normalized.params.configuration).toEqual({ acceptedOutputModes: ['text/plain'] });
  });

  it('maps OpenFang\u2019s tasks/send, its sessionId and its file and data parts', () => {
    const normalized = normalizeSeedRequest({
      jsonrpc: '2.0',
      id: 2,
      method: 'tasks/send',
      params: {
        sessionId: 's-1',
        message: {
          role: 'user',
          parts: [
            { type: 'file', name: 'a.txt', mime_type: 'text/plain', data: 'aGk=' },
            { type: 'data', mime_type: 'application/json', data: { x: 1 } },
          ],
        },
      },
    }) as { method: string; params: { sessionId?: string; message: Record<string, unknown> } };
    expect(normalized.method).toBe('message/send');
    expect(normalized.params.sessionId).toBeUndefined();
    expect(normalized.params.message.contextId).toBe('s-1');
    expect(normalized.params.message.parts).toEqual([
      { kind: 'file', file: { name: 'a.txt', mimeType: 'text/plain', bytes: 'aGk=' } },
      { kind: 'data', data: { x: 1 }, metadata: { mimeType: 'application/json' } },
    ]);
  });

  it('leaves v0.3 requests, ids the client chose and non-requests alone', () => {
    const v03 = { jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { id: 't', historyLength: 2 } };
    expect(normalizeSeedRequest(v03)).toEqual(v03);
    const own = normalizeSeedRequest({
      method: 'message/send',
      params: { message: { messageId: 'mine', parts: [{ kind: 'text', text: 'x' }] } },
    }) as {
      params: { message: { messageId: string } };
    };
    expect(own.params.message.messageId).toBe('mine');
    for (const odd of [null, 'text', [1, 2], { method: 5 }]) expect(normalizeSeedRequest(odd)).toEqual(odd);
  });

  it('maps PocketPaw\u2019s file parts, by reference or with bytes, beside or inside `file`', () => {
    const parts = [
      { type: 'file', name: 'r.csv', uri: 'https://x/r.csv' },
      { type: 'file', name: 'i.png', bytes_data: 'aGk=' },
      { type: 'file', file: { uri: 'https://x/n.txt', mime_type: 'text/plain' } },
    ];
    const normalized = normalizeSeedRequest({
      method: 'message/send',
      params: { message: { role: 'user', parts } },
    }) as {
      params: { message: { parts: unknown[] } };
    };
    expect(normalized.params.message.parts).toEqual([
      { kind: 'file', file: { name: 'r.csv', uri: 'https://x/r.csv' } },
      { kind: 'file', file: { name: 'i.png', bytes: 'aGk=' } },
      { kind: 'file', file: { mimeType: 'text/plain', uri: 'https://x/n.txt' } },
    ]);
  });

  it('gives a message id only to a message in the seeds\u2019 dialect', () => {
    const normalized = normalizeSeedRequest({
      method: 'message/send',
      params: { message: { role: 'user', parts: [{ kind: 'text', text: 'x' }] } },
    }) as {
      params: { message: Record<string, unknown> };
    };
    expect(normalized.params.message.messageId).toBeUndefined();
  });

  it('maps history_length on tasks/get', () => {
    expect(normalizeSeedRequest({ method: 'tasks/get', params: { id: 't', history_length: 0 } })).toEqual({
      method: 'tasks/get',
      params: { id: 't', historyLength: 0 },
    });
  });
});
