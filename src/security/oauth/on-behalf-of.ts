import { AsyncLocalStorage } from 'node:async_hooks';

const SWITCHBOARD = Symbol('switchboard');

/**
 * Whom the work under way is for: a caller (with its access token when it presented one, for
 * upstreams that exchange it), or Switchboard itself (connecting to an upstream, listing its
 * tools). Set around a request's handling and around connections; read only by upstream credentials.
 */
const actingFor = new AsyncLocalStorage<string | typeof SWITCHBOARD | undefined>();

/**
 * Whether it is followed at all: only once an upstream exchanges callers' tokens, the one reader.
 * On Node 22, once an AsyncLocalStorage has been entered, a hook runs on every promise the process
 * makes from then on: 15-25% of the CPU of a call proxied through `/mcp`.
 */
let followed = false;

/** From now on, work carries whom it is for: an upstream exchanges callers' tokens. */
export function followWhomWorkIsFor(): void {
  followed = true;
}

export function onBehalfOf<T>(accessToken: string | undefined, work: () => T): T {
  // Entering a context costs a little on every request; one without a token changes nothing when none was set.
  if (!followed || (accessToken === undefined && actingFor.getStore() === undefined)) return work();
  return actingFor.run(accessToken, work);
}

export function asSwitchboard<T>(work: () => T): T {
  return followed ? actingFor.run(SWITCHBOARD, work) : work();
}

/** The caller's access token; `switchboard` for Switchboard's own work; undefined for a caller without one (an API key, an agent's turn). */
export function actingAs(): string | 'switchboard' | undefined {
  const acting = actingFor.getStore();
  return acting === SWITCHBOARD ? 'switchboard' : acting;
}
