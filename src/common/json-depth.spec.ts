import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { jsonDepthExceeds, JsonTooDeepError } from './json-depth';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects as levels, scalars as none', () => {
    expect(jsonDepthExceeds('text', 0)).toBe(false);
    expect(jsonDepthExceeds({ a: [1] }, 2)).toBe(false);
    expect(jsonDepthExceeds({ a: [1] }, 1)).toBe(true);
    expect(jsonDepthExceeds({ a: 1, b: { c: { d: 1 } } }, 3)).toBe(false);
    expect(jsonDepthExceeds({ a: 1, b: { c: { d: 1 } } }, 2)).toBe(true);
  });

  it('walks nesting far deeper than the stack would allow recursion', () => {
    expect(jsonDepthExceeds(nested(100_000), 64)).toBe(true);
    expect(jsonDepthExceeds(nested(64), 64)).toBe(false);
  });
});

describe('JsonTooDeepError', () => {
  it("carries its JSON-RPC answer: an invalid request, with the request's id when it is a usable one", () => {
    expect(new JsonTooDeepError(64, { jsonrpc: '2.0', id: 7, params: nested(100) }).jsonRpc).toEqual({
      code: A2A_ERROR_CODE.INVALID_REQUEST,
      id: 7,
    });
    expect(new JsonTooDeepError(64, { id: nested(100) }).jsonRpc).toEqual({
      code: A2A_ERROR_CODE.INVALID_REQUEST,
      id: null,
    });
    expect(new JsonTooDeepError(64, nested(100)).jsonRpc.id).toBeNull();
  });
});
