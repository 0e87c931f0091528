import type { Task } from '@a2a-js/sdk';
import type { RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import type { ServiceUnavailableError } from './service-unavailable.error';
import type { TaskEventBus } from './task-event-bus';
import type { TaskStreamInterruptedError } from './task-stream-interrupted.error';

/** The executor's verdict on one send, which the request waits for (A2aCall.watchSend). */
interface Verdict {
  accept(): void;
  refuse(error: ServiceUnavailableError): void;
}

/** Where the call lives in its context's state bag. */
const CALL_KEY = 'switchboard.a2aCall';

/**
 * What Switchboard keeps for one A2A call (a send, a stream, a resubscribe, a cancel, a read) while
 * it runs. The SDK hands the call's context to every part it calls (executor, event bus manager,
 * task store), and its state bag is the SDK's place for a call's own data, so the call travels with
 * it: nothing per request is kept in the long-lived services, and it goes when the request does.
 *
 * It also carries the executor's verdict on each send to the request that made it. The SDK runs the
 * executor apart from the request: it answers a non-blocking send with the first event (the
 * announced task) whether or not the turn was queued after it, and an executor that throws with a
 * `failed` task of its own making that was never stored. So the executor accepts or refuses each
 * send here, and the request handler answers only once the send is accepted, or throws the refusal.
 * Sends of one call are told apart by message id (the same message sent twice at once: in order).
 */
export class A2aCall {
  /** The buses following tasks for this call, by task id. */
  readonly buses = new Map<string, TaskEventBus>();
  /** Why a bus of this call stopped following its task before the turn ended. */
  interruption?: TaskStreamInterruptedError;
  /**
   * A resubscribe's task as its stream showed it where the bus began to follow the turn under way:
   * the bus yields only what comes after it. Undefined when the stream holds no turn (or could not
   * be read: the bus is then interrupted).
   */
  snapshot?: Promise<Task | undefined>;
  /** The client has gone: a bus made for this call from now on ends at once. */
  abandoned = false;
  /** The tasks this call wrote or started, by id; a started one holds undefined until written (RequestScopedTaskStore). */
  readonly tasks = new Map<string, Task | undefined>();
  /** Why a send of this call was refused, for transports that see only the SDK's mapping of it. */
  refusal?: ServiceUnavailableError;
  /** A blocking send accepted with its turn queued and its task not recorded yet (QueuedAgentExecutor.announceQueued). */
  unannounced?: RequestContext;
  /**
   * Until when (epoch ms) no client can know the id of a task this send starts but from its turn's
   * events: decided once, when the send begins, and carried in the turn's job (see
   * SwitchboardRequestHandler.startWaiting).
   */
  idUnknownUntil?: number;
  /** The call is a blocking send: it answers with its task as the turn leaves it, and needs none of the turn's events but the last (TaskEventBus). */
  blockingSend = false;
  /** The sends of this call waiting for the executor's verdict, by message id, oldest first. */
  private readonly verdicts = new Map<string, Verdict[]>();

  /** The call of `context`, made on first use. */
  static of(context: ServerCallContext): A2aCall {
    let call = context.state.get(CALL_KEY) as A2aCall | undefined;
    if (!call) context.state.set(CALL_KEY, (call = new A2aCall()));
    return call;
  }

  /** Runs `send` and settles with its result once the send of `messageId` is accepted, or rejects as soon as it is refused. */
  async watchSend<T>(messageId: string, send: () => Promise<T>): Promise<T> {
    const waiting = this.verdicts.get(messageId) ?? [];
    this.verdicts.set(messageId, waiting);
    let own!: Verdict;
    const verdict = new Promise<void>((accept, refuse) => waiting.push((own = { accept, refuse })));
    try {
      const [result] = await Promise.all([send(), verdict]);
      return result;
    } finally {
      // Still there when the send failed before the executor ran.
      const index = waiting.indexOf(own);
      if (index >= 0) waiting.splice(index, 1);
      if (waiting.length === 0 && this.verdicts.get(messageId) === waiting) this.verdicts.delete(messageId);
    }
  }

  /** Accepts the send of `messageId`. */
  accept(messageId: string): void {
    this.nextVerdict(messageId)?.accept();
  }

  /** Refuses the send of `messageId`; false when no request waits for it. */
  refuse(messageId: string, error: ServiceUnavailableError): boolean {
    const verdict = this.nextVerdict(messageId);
    if (!verdict) return false;
    verdict.refuse(this.refuseAtOnce(error));
    return true;
  }

  /** Refuses the send of this call before it started (nothing of it is written); returns the error to throw. */
  refuseAtOnce(error: ServiceUnavailableError): ServiceUnavailableError {
    this.refusal = error;
    return error;
  }

  /** Why this call failed, when the SDK's JSON-RPC mapping hides it: a send refused, or a bus that stopped following its task. */
  failure(): ServiceUnavailableError | TaskStreamInterruptedError | undefined {
    return this.refusal ?? this.interruption;
  }

  /** The oldest send of `messageId` still waiting for its verdict; it waits no more. */
  private nextVerdict(messageId: string): Verdict | undefined {
    return this.verdicts.get(messageId)?.shift();
  }
}
