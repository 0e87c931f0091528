import { envelopeError, requestId } from './json-rpc-envelope';

describe('JSON-RPC envelopes', () => {
  it('takes a request object with string or number ids, or none', () => {
    expect(envelopeError({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: {} })).toBeUndefined();
    expect(envelopeError({ jsonrpc: '2.0', id: 'a', method: 'GetTask' })).toBeUndefined();
    expect(envelopeError({ jsonrpc: '2.0', id: null, method: 'GetTask' })).toBeUndefined();
  });

  it.each([
    ['"{\\"jsonrpc\\":\\"2.0\\"}"', -32600, /JSON-RPC request object/],
    ['[{"jsonrpc":"2.0","id":1,"method":"GetTask"}]', -32600, /Batch requests/],
    ['{"jsonrpc":"1.0","id":1,"method":"GetTask"}', -32600, /jsonrpc/],
    ['{"jsonrpc":"2.0","id":[1],"method":"GetTask"}', -32600, /id must be/],
    ['{"jsonrpc":"2.0","id":1,"method":""}', -32600, /method/],
    ['{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[1]}', -32602, /params must be an object/],
  ])('refuses %s with %d', (json, code, message) => {
    expect(envelopeError(JSON.parse(json))).toEqual({ code, message: expect.stringMatching(message) });
  });

  it('echoes only ids JSON-RPC allows', () => {
    expect(requestId({ id: 7 })).toBe(7);
    expect(requestId({ id: 'x' })).toBe('x');
    expect(requestId({ id: [7] })).toBeNull();
    expect(requestId({ id: {} })).toBeNull();
    expect(requestId('text')).toBeNull();
  });
});
