import { agentTurnJobId } from './agent-turn-job-id';

describe('agentTurnJobId', () => {
  it('is the same for the same task and message', () => {
    expect(agentTurnJobId('task-1', 'message-1')).toBe(agentTurnJobId('task-1', 'message-1'));
  });

  it('differs for another message of the task, and for ids that only concatenate alike', () => {
    expect(agentTurnJobId('task-1', 'message-2')).not.toBe(agentTurnJobId('task-1', 'message-1'));
    expect(agentTurnJobId('ab', 'c')).not.toBe(agentTurnJobId('a', 'bc'));
  });

  it('holds no colon, which BullMQ refuses in custom ids, whatever the client chose', () => {
    expect(agentTurnJobId('tenant:task', 'msg:1')).toMatch(/^turn-[A-Za-z0-9_-]+$/);
  });
});
