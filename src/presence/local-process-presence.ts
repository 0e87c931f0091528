import type { PresenceRole, ProcessInfo, ProcessPresence } from './process-presence.interface';
import { thisProcess } from './this-process';

/** Embedded mode: one process, which is all there is to list. */
export class LocalProcessPresence implements ProcessPresence {
  readonly self: ProcessInfo;

  constructor(role: PresenceRole) {
    this.self = thisProcess(role);
  }

  async list(): Promise<ProcessInfo[]> {
    return [{ ...this.self, lastSeenAt: new Date().toISOString() }];
  }
}
