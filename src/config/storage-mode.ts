import type { SwitchboardConfig } from './config.schema';

/** Which backing each store uses; derived from config only, so every module decides the same way. */
export interface StorageMode {
  /** Postgres when a database URL is configured, else in-memory. */
  tasks: 'postgres' | 'memory';
  /** Redis when a Redis URL is configured (event streams, cancel signals, rate limits, BullMQ), else in-process. */
  shared: 'redis' | 'memory';
}

export function storageMode(config: Pick<SwitchboardConfig, 'database' | 'redis'>): StorageMode {
  return {
    tasks: config.database.url ? 'postgres' : 'memory',
    shared: config.redis.url ? 'redis' : 'memory',
  };
}

export function isEmbedded(mode: StorageMode): boolean {
  return mode.tasks === 'memory' && mode.shared === 'memory';
}
