import { sendParamsProblem } from './send-params.validator';

const valid = { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } };

describe('sendParamsProblem (v1.0)', () => {
  it('accepts a v1.0 send, with options', () => {
    expect(sendParamsProblem('v1', valid, 'params')).toBeUndefined();
    expect(
      sendParamsProblem(
        'v1',
        { ...valid, configuration: { acceptedOutputModes: ['text/plain'], historyLength: 2, returnImmediately: true } },
        'params',
      ),
    ).toBeUndefined();
    expect(
      sendParamsProblem(
        'v1',
        { message: { ...valid.message, role: 1, parts: [{ data: { a: 1 } }, { url: 'https://x/y' }] } },
        'params',
      ),
    ).toBeUndefined();
  });

  it.each([
    [undefined, 'params: Invalid input: expected object, received undefined'],
    [{ message: 'hi' }, 'params.message: Invalid input: expected object, received string'],
    [
      { message: { ...valid.message, messageId: 7 } },
      'params.message.messageId: Invalid input: expected string, received number',
    ],
    [
      { message: { ...valid.message, messageId: '' } },
      'params.message.messageId: Too small: expected string to have >=1 characters',
    ],
    [{ message: { ...valid.message, parts: [] } }, 'params.message.parts: Too small: expected array to have >=1 items'],
    [
      { message: { ...valid.message, parts: [{ text: 'a', url: 'b' }] } },
      'params.message.parts[0]: a part needs exactly one of text, raw, url or data',
    ],
    [
      { message: { ...valid.message, parts: [{ text: 3 }] } },
      'params.message.parts[0].text: Invalid input: expected string, received number',
    ],
    [
      { ...valid, configuration: { historyLength: -1 } },
      'params.configuration.historyLength: Too small: expected number to be >=0',
    ],
  ])('names the field that is wrong in %j', (params, problem) => {
    expect(sendParamsProblem('v1', params, 'params')).toBe(problem);
  });

  it('starts the path at the body when there is no prefix (REST)', () => {
    expect(sendParamsProblem('v1', { message: { ...valid.message, role: 'boss' } }, '')).toMatch(/^message\.role: /);
  });
});

describe('sendParamsProblem (v0.3 JSON-RPC and HTTP+JSON)', () => {
  const v03 = { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } };
  const v03Rest = { request: { messageId: 'm1', role: 'ROLE_USER', content: [{ text: 'hi' }] } };

  it('accepts v0.3 sends', () => {
    expect(sendParamsProblem('v03', v03, 'params')).toBeUndefined();
    expect(
      sendParamsProblem(
        'v03',
        { message: { messageId: 'm2', role: 'agent', parts: [{ kind: 'data', data: { a: 1 } }] } },
        'params',
      ),
    ).toBeUndefined();
    expect(sendParamsProblem('v03-rest', v03Rest, '')).toBeUndefined();
    expect(
      sendParamsProblem(
        'v03-rest',
        { message: { ...v03Rest.request, content: [{ file: { fileWithUri: 'https://x/y' } }] } },
        '',
      ),
    ).toBeUndefined();
  });

  it.each([
    ['v03', { message: { ...v03.message, role: 'ROLE_USER' } }, /^params\.message\.role: /],
    ['v03', { message: { ...v03.message, messageId: undefined } }, /^params\.message\.messageId: /],
    [
      'v03',
      { message: { ...v03.message, parts: [{ kind: 'data', data: 'd' }] } },
      /^params\.message\.parts\[0\]\.data: /,
    ],
    ['v03', { message: { ...v03.message, parts: [{ text: 'no kind' }] } }, /^params\.message\.parts\[0\]\.kind: /],
    ['v03', { ...v03, metadata: -1 }, /^params\.metadata: /],
    ['v03-rest', { request: { ...v03Rest.request, content: [{ text: 5 }] } }, /^request\.content\[0\]\.text: /],
    [
      'v03-rest',
      { request: { ...v03Rest.request, content: [{ data: { data: 'd' } }] } },
      /^request\.content\[0\]\.data\.data: /,
    ],
    ['v03-rest', { message: v03Rest.request, request: v03Rest.request }, /needs exactly one of message or request/],
  ] as const)('refuses a %s send naming the field: %j', (dialect, params, problem) => {
    expect(sendParamsProblem(dialect, params, dialect === 'v03' ? 'params' : '')).toMatch(problem);
  });
});
