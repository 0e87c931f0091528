import type { TurnProgress } from '../../agent-executor.interface';
import type { ChatMessage } from './chat-completions.client';
import { LlmTurnSteps } from './llm-turn-steps';

/** A turn's progress kept as a job keeps it: the last thing saved, read by the next run. */
function progressStore(saved?: object): TurnProgress & { last?: object } {
  const store: TurnProgress & { last?: object } = {
    saved,
    save: async (progress) => void (store.last = structuredClone(progress)),
  };
  return store;
}

const call = (id: string, name: string, args: object) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});
const reply: ChatMessage = {
  role: 'assistant',
  content: null,
  tool_calls: [call('c1', 'mcp_fs_read', { path: 'a' }), call('c2', 'mcp_fs_read', { path: 'b' })],
};

describe('LlmTurnSteps', () => {
  it('saves each step as it happens, the call under way with its upstream task once named', async () => {
    const progress = progressStore();
    const steps = new LlmTurnSteps(progress);
    await steps.replied(reply);
    await steps.calling({ toolCallId: 'c1' });
    expect(progress.last).toEqual({ steps: [reply], running: { toolCallId: 'c1' } });
    await steps.calling({ toolCallId: 'c1', upstreamTask: 'up-1' });
    expect(progress.last).toEqual({ steps: [reply], running: { toolCallId: 'c1', upstreamTask: 'up-1' } });
    await steps.answered({ role: 'tool', tool_call_id: 'c1', content: 'A' });
    expect(progress.last).toEqual({ steps: [reply, { role: 'tool', tool_call_id: 'c1', content: 'A' }] });
  });

  it('tells a run taking over where the earlier one stopped: its model calls, the calls done, the calls left, the one cut off', () => {
    const saved = {
      steps: [reply, { role: 'tool', tool_call_id: 'c1', content: 'A' }],
      running: { toolCallId: 'c2', upstreamTask: 'up-2' },
    };
    const steps = new LlmTurnSteps(progressStore(saved));
    expect(steps.modelCalls).toBe(1);
    expect(steps.finishedCalls()).toEqual([{ name: 'mcp_fs_read', args: { path: 'a' } }]);
    expect(steps.unfinishedCalls().map(({ id }) => id)).toEqual(['c2']);
    expect(steps.interrupted).toEqual({ toolCallId: 'c2', upstreamTask: 'up-2' });
  });

  it('starts empty on a first run', () => {
    const steps = new LlmTurnSteps(progressStore());
    expect([steps.steps, steps.unfinishedCalls(), steps.modelCalls, steps.interrupted]).toEqual([[], [], 0, undefined]);
  });
});
