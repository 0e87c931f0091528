import type { ExternalAgentConfig } from '../config/config.schema';
import { endpointTaskAgents } from './endpoint-task-agents';

const external = (name: string, trusted = false) => ({ name, trusted }) as ExternalAgentConfig;
const EXTERNALS = [external('peer'), external('oracle', true), external('other')];

describe('endpointTaskAgents', () => {
  it("reads an agent's own tasks, and those of the external agents it may delegate to with a2a_send", () => {
    expect(endpointTaskAgents({ name: 'assistant', tools: ['a2a_*'], delegates: ['peer'] }, EXTERNALS)).toEqual([
      'assistant',
      'peer',
      'oracle',
    ]);
  });

  it('reads its own tasks alone when it cannot delegate', () => {
    expect(endpointTaskAgents({ name: 'echo', tools: ['web_fetch'], delegates: ['peer'] }, EXTERNALS)).toEqual([
      'echo',
    ]);
    expect(endpointTaskAgents({ name: 'echo', tools: [], delegates: [] }, EXTERNALS)).toEqual(['echo']);
  });
});
