import { resolveUserScope, type ServerCallContext } from '@a2a-js/sdk/server';

/** Tasks are partitioned by tenant (from the request path) and owner (the authenticated caller). */
export interface TaskScope {
  tenant: string;
  owner: string;
}

export function taskScope(context: ServerCallContext): TaskScope {
  return { tenant: context.tenant ?? '', owner: resolveUserScope(context) };
}

export function sameScope(a: TaskScope, b: TaskScope): boolean {
  return a.tenant === b.tenant && a.owner === b.owner;
}
