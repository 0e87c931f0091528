import { ServerCallContext } from '@a2a-js/sdk/server';
import { SendAcceptance } from './send-acceptance';
import { ServiceUnavailableError } from './service-unavailable.error';

/** A promise and the function that resolves it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Resolves once every pending callback has run, so a test can see that a promise has not settled. */
const settledSoFar = <T>(promise: Promise<T>) => Promise.race([promise.then(() => 'settled', () => 'settled'), new Promise((done) => setImmediate(() => done('pending')))]);

describe('SendAcceptance', () => {
  let context: ServerCallContext;
  beforeEach(() => (context = new ServerCallContext()));
  const refusal = new ServiceUnavailableError('The message could not be accepted', new Error('ECONNREFUSED'));

  it('answers with the send\'s result only once the send is accepted', async () => {
    const acceptance = new SendAcceptance();
    const answer = acceptance.watch(context, 'm1', async () => 'the task');
    expect(await settledSoFar(answer)).toBe('pending');
    acceptance.accept(context, 'm1');
    await expect(answer).resolves.toBe('the task');
  });

  it('rejects with the refusal at once, while the send itself is still pending', async () => {
    const acceptance = new SendAcceptance();
    const answer = acceptance.watch(context, 'm1', () => deferred<string>().promise);
    expect(acceptance.refuse(context, 'm1', refusal)).toBe(true);
    await expect(answer).rejects.toBe(refusal);
    expect(acceptance.refusalOf(context)).toBe(refusal);
  });

  it('tells apart sends by context and message id', async () => {
    const acceptance = new SendAcceptance();
    const other = new ServerCallContext();
    const first = acceptance.watch(context, 'm1', async () => 'first');
    const second = acceptance.watch(other, 'm1', async () => 'second');
    acceptance.refuse(other, 'm1', refusal);
    acceptance.accept(context, 'm1');
    await expect(first).resolves.toBe('first');
    await expect(second).rejects.toBe(refusal);
    expect(acceptance.refusalOf(context)).toBeUndefined();
  });

  it('says when nobody waits for a refusal, so the executor can throw it instead', () => {
    expect(new SendAcceptance().refuse(context, 'm1', refusal)).toBe(false);
  });

  it('fails with the send when the send fails before any verdict', async () => {
    const acceptance = new SendAcceptance();
    await expect(acceptance.watch(context, 'm1', async () => Promise.reject(new Error('Task not found')))).rejects.toThrow('Task not found');
    expect(acceptance.refuse(context, 'm1', refusal)).toBe(false);
  });
});
