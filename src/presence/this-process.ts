import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { SWITCHBOARD_VERSION } from '../common/version';
import type { PresenceRole, ProcessInfo } from './process-presence.interface';

/** This process as it announces itself, seen now. */
export function thisProcess(role: PresenceRole): ProcessInfo {
  const host = hostname();
  const now = new Date().toISOString();
  return {
    id: `${host}-${process.pid}-${randomBytes(3).toString('hex')}`,
    role,
    host,
    pid: process.pid,
    version: SWITCHBOARD_VERSION,
    startedAt: now,
    lastSeenAt: now,
  };
}
