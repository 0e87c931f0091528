export const PROCESS_PRESENCE = Symbol('PROCESS_PRESENCE');

/** What a process serves: HTTP (`api`, which may run workers too), or only queue workers. */
export type PresenceRole = 'api' | 'worker';

/** One running Switchboard process, as it announces itself. */
export interface ProcessInfo {
  /** Unique per process run: `{host}-{pid}-{random}`. */
  id: string;
  role: PresenceRole;
  host: string;
  pid: number;
  version: string;
  startedAt: string;
  /** When it last announced itself; a process that stops announcing drops out after the TTL. */
  lastSeenAt: string;
}

/** The processes alive: this one, and in durable mode every other that shares its Redis. */
export interface ProcessPresence {
  /** This process. */
  readonly self: ProcessInfo;
  /** Every process alive, this one included, oldest first. */
  list(): Promise<ProcessInfo[]>;
}
