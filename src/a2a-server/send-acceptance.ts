import type { ServerCallContext } from '@a2a-js/sdk/server';
import { A2aCall, Verdict } from './a2a-call';
import type { ServiceUnavailableError } from './service-unavailable.error';

/**
 * The executor's verdict on each send, passed to the request that made it. The SDK runs the executor
 * apart from the request: it answers a non-blocking send with the first event (the announced task)
 * whether or not the turn was queued after it, and an executor that throws with a `failed` task of its
 * own making that was never stored. So the executor accepts or refuses each send here, and the
 * request handler answers only once the send is accepted, or throws the refusal. Sends are told apart
 * by their call (A2aCall) and message id (the same message sent twice at once in one call: in order).
 */
export class SendAcceptance {

  /** Runs `send` and settles with its result once the send of `messageId` in `context` is accepted, or rejects as soon as it is refused. */
  async watch<T>(context: ServerCallContext, messageId: string, send: () => Promise<T>): Promise<T> {
    const sends = A2aCall.of(context).verdicts;
    const waiting = sends.get(messageId) ?? [];
    sends.set(messageId, waiting);
    let own!: Verdict;
    const verdict = new Promise<void>((accept, refuse) => waiting.push((own = { accept, refuse })));
    try {
      const [result] = await Promise.all([send(), verdict]);
      return result;
    } finally {
      // Still there when the send failed before the executor ran.
      const index = waiting.indexOf(own);
      if (index >= 0) waiting.splice(index, 1);
      if (waiting.length === 0 && sends.get(messageId) === waiting) sends.delete(messageId);
    }
  }

  accept(context: ServerCallContext, messageId: string): void {
    this.next(context, messageId)?.accept();
  }

  /** Refuses the send of `messageId` in `context`; false when no request waits for it. */
  refuse(context: ServerCallContext, messageId: string, error: ServiceUnavailableError): boolean {
    const verdict = this.next(context, messageId);
    if (!verdict) return false;
    verdict.refuse(this.refuseAtOnce(context, error));
    return true;
  }

  /** Refuses the send made in `context` before it started (nothing of it is written); returns the error to throw. */
  refuseAtOnce(context: ServerCallContext, error: ServiceUnavailableError): ServiceUnavailableError {
    A2aCall.of(context).refusal = error;
    return error;
  }

  /** The oldest send of `messageId` in `context` still waiting for its verdict; it waits no more. */
  private next(context: ServerCallContext, messageId: string): Verdict | undefined {
    return A2aCall.of(context).verdicts.get(messageId)?.shift();
  }

  /** The refusal of a send in `context`, for transports that see only the SDK's mapping of it. */
  refusalOf(context: ServerCallContext): ServiceUnavailableError | undefined {
    return A2aCall.of(context).refusal;
  }
}
