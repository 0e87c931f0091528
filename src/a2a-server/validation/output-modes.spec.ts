import { acceptsOutputOf } from './output-modes';

const OFFERED = ['text/plain', 'application/json'];

describe('acceptsOutputOf', () => {
  it.each([
    [[], 'nothing given'],
    [['text'], 'the short form clients send for text'],
    [['json'], 'the short form for JSON'],
    [['*'], 'a bare wildcard'],
    [['*/*'], 'any media type'],
    [['text/*'], 'any text'],
    [['TEXT/Plain; charset=utf-8'], 'a media type with parameters, in another case'],
    [['image/png', 'application/json'], 'one acceptable mode among others'],
  ])('accepts %j (%s)', (accepted) => {
    expect(acceptsOutputOf(accepted, OFFERED)).toBe(true);
  });

  it('matches a bare `json` to a +json media type', () => {
    expect(acceptsOutputOf(['json'], ['application/a2a+json'])).toBe(true);
  });

  it.each([[['image/png']], [['image/*']], [['image']], [['text/html']], [['xml']]])(
    'refuses %j, which the agent does not produce',
    (accepted) => {
      expect(acceptsOutputOf(accepted, OFFERED)).toBe(false);
    },
  );
});
