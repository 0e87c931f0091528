import { ServerCallContext } from '@a2a-js/sdk/server';
import { A2aCall } from './a2a-call';
import { ServiceUnavailableError } from './service-unavailable.error';
import { TaskStreamInterruptedError } from './task-stream-interrupted.error';

/** A promise and the function that resolves it. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Resolves once every pending callback has run, so a test can see that a promise has not settled. */
const settledSoFar = <T>(promise: Promise<T>) =>
  Promise.race([
    promise.then(
      () => 'settled',
      () => 'settled',
    ),
    new Promise((done) => setImmediate(() => done('pending'))),
  ]);

describe('A2aCall', () => {
  let call: A2aCall;
  beforeEach(() => (call = new A2aCall()));
  const refusal = new ServiceUnavailableError('The message could not be accepted', new Error('ECONNREFUSED'));

  it('is one object per call context, made on first use', () => {
    const context = new ServerCallContext();
    expect(A2aCall.of(context)).toBe(A2aCall.of(context));
    expect(A2aCall.of(new ServerCallContext())).not.toBe(A2aCall.of(context));
  });

  it("answers with the send's result only once the send is accepted", async () => {
    const answer = call.watchSend('m1', async () => 'the task');
    expect(await settledSoFar(answer)).toBe('pending');
    call.accept('m1');
    await expect(answer).resolves.toBe('the task');
  });

  it('rejects with the refusal at once, while the send itself is still pending', async () => {
    const answer = call.watchSend('m1', () => deferred<string>().promise);
    expect(call.refuse('m1', refusal)).toBe(true);
    await expect(answer).rejects.toBe(refusal);
    expect(call.failure()).toBe(refusal);
  });

  it('tells apart sends by call and message id', async () => {
    const other = new A2aCall();
    const first = call.watchSend('m1', async () => 'first');
    const second = other.watchSend('m1', async () => 'second');
    other.refuse('m1', refusal);
    call.accept('m1');
    await expect(first).resolves.toBe('first');
    await expect(second).rejects.toBe(refusal);
    expect(call.failure()).toBeUndefined();
  });

  it('gives verdicts on the same message sent twice in one call in order', async () => {
    const first = call.watchSend('m1', async () => 'first');
    const second = call.watchSend('m1', async () => 'second');
    call.accept('m1');
    call.refuse('m1', refusal);
    await expect(first).resolves.toBe('first');
    await expect(second).rejects.toBe(refusal);
  });

  it('says when nobody waits for a refusal, so the executor can throw it instead', () => {
    expect(call.refuse('m1', refusal)).toBe(false);
  });

  it('fails with the send when the send fails before any verdict', async () => {
    await expect(call.watchSend('m1', async () => Promise.reject(new Error('Task not found')))).rejects.toThrow(
      'Task not found',
    );
    expect(call.refuse('m1', refusal)).toBe(false);
  });

  it('keeps a refusal made before the send started, as the failure transports report', () => {
    expect(call.refuseAtOnce(refusal)).toBe(refusal);
    expect(call.failure()).toBe(refusal);
  });

  it('reports an interrupted bus as its failure when no send was refused', () => {
    const interruption = new TaskStreamInterruptedError('t1', 'the service is shutting down');
    call.interruption = interruption;
    expect(call.failure()).toBe(interruption);
    call.refuseAtOnce(refusal);
    expect(call.failure()).toBe(refusal);
  });
});
