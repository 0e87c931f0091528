import type { Task } from '@a2a-js/sdk';
import type { RequestContext, ServerCallContext } from '@a2a-js/sdk/server';
import type { ServiceUnavailableError } from './service-unavailable.error';
import type { TaskEventBus } from './task-event-bus';
import type { TaskStreamInterruptedError } from './task-stream-interrupted.error';

/** The executor's verdict on one send, which the request waits for (SendAcceptance). */
export interface Verdict {
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
 */
export class A2aCall {
  /** The buses following tasks for this call, by task id. */
  readonly buses = new Map<string, TaskEventBus>();
  /** Why a bus of this call stopped following its task before the turn ended. */
  interruption?: TaskStreamInterruptedError;
  /** A resubscribe's task as its stream showed it where the bus began to follow (TaskEventBusManager.snapshotOf). */
  snapshot?: Promise<Task | undefined>;
  /** The client has gone: a bus made for this call from now on ends at once. */
  abandoned = false;
  /** The tasks this call wrote or started, by id; a started one holds undefined until written (RequestScopedTaskStore). */
  readonly tasks = new Map<string, Task | undefined>();
  /** The sends of this call waiting for the executor's verdict, by message id, oldest first (SendAcceptance). */
  readonly verdicts = new Map<string, Verdict[]>();
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

  /** The call of `context`, made on first use. */
  static of(context: ServerCallContext): A2aCall {
    let call = context.state.get(CALL_KEY) as A2aCall | undefined;
    if (!call) context.state.set(CALL_KEY, (call = new A2aCall()));
    return call;
  }
}
