import { sendParamsProblem } from './send-params.validator';

const valid = { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } };

describe('sendParamsProblem', () => {
  it('accepts a v1.0 send, with options', () => {
    expect(sendParamsProblem(valid, 'params')).toBeUndefined();
    expect(sendParamsProblem({ ...valid, configuration: { acceptedOutputModes: ['text/plain'], historyLength: 2, returnImmediately: true } }, 'params')).toBeUndefined();
    expect(sendParamsProblem({ message: { ...valid.message, role: 1, parts: [{ data: { a: 1 } }, { url: 'https://x/y' }] } }, 'params')).toBeUndefined();
  });

  it.each([
    [undefined, 'params: Invalid input: expected object, received undefined'],
    [{ message: 'hi' }, 'params.message: Invalid input: expected object, received string'],
    [{ message: { ...valid.message, messageId: 7 } }, 'params.message.messageId: Invalid input: expected string, received number'],
    [{ message: { ...valid.message, messageId: '' } }, 'params.message.messageId: Too small: expected string to have >=1 characters'],
    [{ message: { ...valid.message, parts: [] } }, 'params.message.parts: Too small: expected array to have >=1 items'],
    [{ message: { ...valid.message, parts: [{ text: 'a', url: 'b' }] } }, 'params.message.parts[0]: a part needs exactly one of text, raw, url or data'],
    [{ message: { ...valid.message, parts: [{ text: 3 }] } }, 'params.message.parts[0].text: Invalid input: expected string, received number'],
    [{ ...valid, configuration: { historyLength: -1 } }, 'params.configuration.historyLength: Too small: expected number to be >=0'],
  ])('names the field that is wrong in %j', (params, problem) => {
    expect(sendParamsProblem(params, 'params')).toBe(problem);
  });

  it('starts the path at the body when there is no prefix (REST)', () => {
    expect(sendParamsProblem({ message: { ...valid.message, role: 'boss' } }, '')).toMatch(/^message\.role: /);
  });
});
