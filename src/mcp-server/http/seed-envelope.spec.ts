import { fromSeedEnvelope } from './seed-envelope';

describe('fromSeedEnvelope', () => {
  it("reads the ARDF seed's type-tagged request as JSON-RPC 2.0", () => {
    expect(fromSeedEnvelope({ type: 'request', method: 'resources/list', params: {}, id: 1 })).toEqual({
      jsonrpc: '2.0',
      method: 'resources/list',
      params: {},
      id: 1,
    });
  });

  it('leaves JSON-RPC messages, batches and other bodies alone', () => {
    const jsonRpc = { jsonrpc: '2.0', type: 'request', method: 'x', id: 1 };
    expect(fromSeedEnvelope(jsonRpc)).toBe(jsonRpc);
    expect(fromSeedEnvelope([{ type: 'request', method: 'x' }])).toEqual([{ type: 'request', method: 'x' }]);
    expect(fromSeedEnvelope({ type: 'response', result: {} })).toEqual({ type: 'response', result: {} });
    expect(fromSeedEnvelope('text')).toBe('text');
    expect(fromSeedEnvelope(undefined)).toBeUndefined();
  });
});
