import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import type { HostedAgent } from '../../agent-registry.service';

/** An external agent's delegate as the A2A handlers serve it: a2a_send runs its tasks through `handler`. */
export interface DelegateHandler {
  agent: HostedAgent;
  handler: Pick<A2ARequestHandler, 'sendMessageStream' | 'getTask' | 'cancelTask'>;
}

/** The delegates' A2A request handlers, provided by the A2A server's handlers module (AgentHandlers). */
export interface DelegateHandlers {
  findDelegate(name: string): DelegateHandler | undefined;
}

export const DELEGATE_HANDLERS = Symbol('DELEGATE_HANDLERS');
