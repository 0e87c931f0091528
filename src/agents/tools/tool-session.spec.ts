import { ServerCallContext } from '@a2a-js/sdk/server';
import type { ToolCallContext, ToolProvider, ToolResult } from './tool-provider.interface';
import { truncated } from './tool-limits';
import { ToolSession } from './tool-session';

/** Tools with scripted behaviour: the session is ours to test, not a provider. */
type Behaviour = (args: Record<string, unknown>, signal: AbortSignal, context?: ToolCallContext) => Promise<ToolResult>;

function provider(behaviours: Record<string, Behaviour>): ToolProvider {
  return {
    definitions: () =>
      Object.keys(behaviours).map((name) => ({ name, description: name, inputSchema: { type: 'object' } })),
    has: (name) => name in behaviours,
    originOf: (name) => (name in behaviours ? { kind: 'builtin', server: '' } : undefined),
    call: (name, args, signal, context) => behaviours[name](args, signal, context),
  };
}

const ok = (text: string) => async (): Promise<ToolResult> => ({ text, isError: false });
const callContext = new ServerCallContext();
const scope = { taskId: 't1', agent: 'a1', callContext, allow: ['mcp_fs_*', 'slow'] };
const limits = { timeoutMs: 200, maxResultChars: 10 };
const live = () => new AbortController().signal;
const unrecorded = () => undefined;

describe('ToolSession', () => {
  it('offers and runs only the tools the allowlist names', async () => {
    const session = new ToolSession(
      [provider({ mcp_fs_read: ok('data'), shell: ok('rm -rf') })],
      scope,
      limits,
      unrecorded,
    );
    expect(session.definitions.map((tool) => tool.name)).toEqual(['mcp_fs_read']);
    expect(await session.call('mcp_fs_read', {}, live())).toEqual({ text: 'data', isError: false });
    expect(await session.call('shell', {}, live())).toEqual({
      text: expect.stringMatching(/not available/),
      isError: true,
    });
  });

  it("tells the provider which turn calls: the agent, the task and the caller's call context", async () => {
    let seen: ToolCallContext | undefined;
    const session = new ToolSession(
      [provider({ mcp_fs_read: async (_args, _signal, context) => ((seen = context), { text: '', isError: false }) })],
      scope,
      limits,
      unrecorded,
    );
    await session.call('mcp_fs_read', {}, live());
    expect(seen).toEqual({ taskId: 't1', agent: 'a1', callContext });
    expect(seen?.callContext).toBe(callContext);
  });

  it('refuses the same call twice in a turn, whatever the key order', async () => {
    const session = new ToolSession([provider({ mcp_fs_read: ok('data') })], scope, limits, unrecorded);
    expect((await session.call('mcp_fs_read', { a: 1, b: 2 }, live())).isError).toBe(false);
    expect((await session.call('mcp_fs_read', { b: 2, a: 1 }, live())).text).toMatch(/already called/);
    expect((await session.call('mcp_fs_read', { a: 2 }, live())).isError).toBe(false);
  });

  it('times a call out and tells the model so', async () => {
    const hang = (_args: Record<string, unknown>, signal: AbortSignal) =>
      new Promise<ToolResult>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
    const session = new ToolSession([provider({ slow: hang })], scope, limits, unrecorded);
    expect(await session.call('slow', {}, live())).toEqual({
      text: 'Tool "slow" did not answer within 200 ms.',
      isError: true,
    });
  });

  it('rethrows when the turn itself is canceled', async () => {
    const controller = new AbortController();
    const hang = (_args: Record<string, unknown>, signal: AbortSignal) =>
      new Promise<ToolResult>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    const session = new ToolSession([provider({ slow: hang })], scope, limits, unrecorded);
    const call = session.call('slow', {}, controller.signal);
    controller.abort();
    await expect(call).rejects.toThrow('aborted');
  });

  it('cuts long results with a visible marker', async () => {
    const session = new ToolSession([provider({ mcp_fs_read: ok('0123456789abcdef') })], scope, limits, unrecorded);
    expect((await session.call('mcp_fs_read', {}, live())).text).toBe(
      '0123456789\n[truncated: 10 of 16 characters shown]',
    );
    expect(truncated('short', 10)).toBe('short');
  });
});
