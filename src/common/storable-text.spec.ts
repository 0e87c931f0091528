import { hasUnstorableText, pathOfUnstorableText } from './storable-text';

describe('storable text', () => {
  it('finds NUL and unpaired surrogates, in values and keys, with their path', () => {
    expect(pathOfUnstorableText({ message: { parts: [{ text: 'ok' }, { text: 'a\u0000b' }] } }, 'params')).toBe(
      'params.message.parts[1].text',
    );
    expect(pathOfUnstorableText({ metadata: { '\ud800': 1 } }, 'params')).toBe('params.metadata');
    expect(pathOfUnstorableText({ text: '😀 e\u0301' }, 'params')).toBeUndefined();
  });

  it('treats keys that are not strings (a repeated query parameter) as matching nothing', () => {
    expect(hasUnstorableText('task-1', undefined)).toBe(false);
    expect(hasUnstorableText('task-1', ['a', 'b'])).toBe(true);
    expect(hasUnstorableText('x\u0000')).toBe(true);
  });
});
