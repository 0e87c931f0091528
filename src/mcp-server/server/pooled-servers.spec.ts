import { McpServer } from '@modelcontextprotocol/server';
import { PooledServers, type TrackCall } from './pooled-servers';

describe('PooledServers', () => {
  let tracks: Map<McpServer, TrackCall>;
  let pool: PooledServers;
  const acquire = (key = 'legacy\ntool') =>
    pool.acquire(key, (track) => {
      const server = new McpServer({ name: 'test', version: '1' });
      tracks.set(server, track);
      return server;
    });
  /** What the SDK does when the exchange a server served ends. */
  const closeExchange = (server: McpServer) => server.server.onclose?.();

  beforeEach(() => {
    tracks = new Map();
    pool = new PooledServers();
  });

  it('hands a server out again once its exchange closed and its call returned', async () => {
    const first = acquire();
    await tracks.get(first)!(async () => 'answered');
    closeExchange(first);
    expect(acquire()).toBe(first);
  });

  it('does not hand out a server whose call still runs, nor one still serving, nor one built for another key', async () => {
    const running = acquire();
    let finish!: () => void;
    const call = tracks.get(running)!(() => new Promise<void>((resolve) => (finish = resolve)));
    closeExchange(running);
    const serving = acquire();
    expect(serving).not.toBe(running);
    expect(acquire('legacy\nother')).not.toBe(running);
    finish();
    await call;
    expect(acquire()).toBe(running);
  });

  it('builds anew after a clear', async () => {
    const before = acquire();
    closeExchange(before);
    pool.clear();
    expect(acquire()).not.toBe(before);
  });
});
