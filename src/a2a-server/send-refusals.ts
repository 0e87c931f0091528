import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { ServiceUnavailableError } from './service-unavailable.error';

type Refuse = (error: ServiceUnavailableError) => void;

/**
 * How a send that could not be accepted reaches its caller as an error. The SDK runs the executor
 * apart from the request and answers an executor that throws with a `failed` task of its own making,
 * which was never stored; so the executor refuses the send here instead, and the request handler,
 * which waits on this besides the SDK, throws the refusal. Sends are told apart by their context and
 * message id.
 */
export class SendRefusals {
  private readonly waiting = new WeakMap<ServerCallContext, Map<string, Refuse>>();
  private readonly refused = new WeakMap<ServerCallContext, ServiceUnavailableError>();

  /** Runs `send`, settling as it does, unless the send of `messageId` in `context` is refused first. */
  async watch<T>(context: ServerCallContext, messageId: string, send: () => Promise<T>): Promise<T> {
    let sends = this.waiting.get(context);
    if (!sends) this.waiting.set(context, (sends = new Map()));
    const refused = new Promise<never>((_, reject) => sends.set(messageId, reject));
    try {
      return await Promise.race([send(), refused]);
    } finally {
      sends.delete(messageId);
    }
  }

  /** Refuses the send of `messageId` in `context`; false when no request waits for it. */
  refuse(context: ServerCallContext, messageId: string, error: ServiceUnavailableError): boolean {
    const refuse = this.waiting.get(context)?.get(messageId);
    if (!refuse) return false;
    this.refused.set(context, error);
    refuse(error);
    return true;
  }

  /** The refusal of a send in `context`, for transports that see only the SDK's mapping of it. */
  of(context: ServerCallContext): ServiceUnavailableError | undefined {
    return this.refused.get(context);
  }
}
