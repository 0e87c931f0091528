import type Redis from 'ioredis';

/** A connection lent for blocking reads; give it back with `release()` once no command is in flight. */
export interface BlockingLease {
  connection: Redis;
  /** Returns the connection to the pool, or closes it when it may be broken (`healthy` false) or the pool is full. */
  release(healthy?: boolean): void;
}

/**
 * Connections for blocking commands (XREAD BLOCK), reused from read to read: opening one per read
 * costs a TCP handshake and a ready check each time. A lease's abort signal wakes a blocked command
 * at once with CLIENT UNBLOCK, sent on the shared command connection, so the lease ends promptly and
 * its connection stays usable.
 */
export class BlockingConnectionPool {
  private readonly idle: Redis[] = [];
  private readonly clientIds = new WeakMap<Redis, number>();

  constructor(
    private readonly open: () => Redis,
    private readonly control: Redis,
    private readonly maxIdle: number,
  ) {}

  async lease(signal?: AbortSignal): Promise<BlockingLease> {
    const connection = this.idle.pop() ?? this.open();
    let clientId = this.clientIds.get(connection);
    if (clientId === undefined) {
      try {
        clientId = (await connection.client('ID')) as number;
      } catch (error) {
        connection.disconnect();
        throw error;
      }
      this.clientIds.set(connection, clientId);
    }
    const id = clientId;
    const unblock = () => void this.control.client('UNBLOCK', id).catch(() => undefined);
    signal?.addEventListener('abort', unblock, { once: true });
    let released = false;
    return {
      connection,
      release: (healthy = true) => {
        if (released) return;
        released = true;
        signal?.removeEventListener('abort', unblock);
        if (healthy && connection.status === 'ready' && this.idle.length < this.maxIdle) this.idle.push(connection);
        else connection.disconnect();
      },
    };
  }
}
