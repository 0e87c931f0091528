import type { AccessScope } from './access-scope';

/** The authenticated caller: the name of the API key it presented, and what that key may reach. Tasks are scoped per principal. */
export interface Principal {
  readonly name: string;
  readonly scope: AccessScope;
}

const principals = new WeakMap<object, Principal>();

/** Called by the auth guard once the key is verified. */
export function attachPrincipal(request: object, principal: Principal): void {
  principals.set(request, principal);
}

/**
 * The caller of an authenticated request (pass the Fastify request, as `@Req()` gives it).
 * Undefined on public routes and when the service runs without keys.
 */
export function principalOf(request: object): Principal | undefined {
  return principals.get(request);
}
