import { MemoryMcpSessionStore } from './memory-mcp-session-store';

describe('MemoryMcpSessionStore', () => {
  afterEach(() => jest.useRealTimers());

  it('extends a session on use and forgets it once expired', async () => {
    jest.useFakeTimers({ now: 0 });
    const store = new MemoryMcpSessionStore(1_000);
    const id = await store.open('alice', { sampling: {} });
    jest.setSystemTime(800);
    expect(await store.owner(id)).toBe('alice');
    expect(await store.clientCapabilities(id)).toEqual({ sampling: {} });
    jest.setSystemTime(1_700);
    expect(await store.owner(id)).toBe('alice');
    jest.setSystemTime(2_800);
    expect(await store.owner(id)).toBeUndefined();
    expect(await store.clientCapabilities(id)).toBeUndefined();
  });

  it('drops expired sessions nobody asks about again when new ones open', async () => {
    jest.useFakeTimers({ now: 0 });
    const store = new MemoryMcpSessionStore(1_000);
    await store.open('left-without-delete', {});
    jest.setSystemTime(5_000);
    await store.open('bob', {});
    expect((store as unknown as { sessions: Map<string, unknown> }).sessions.size).toBe(1);
  });
});
