import { jsonDepthExceeds } from './json-depth';

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
