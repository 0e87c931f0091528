import { TaskState } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { withStatesNamed } from './state-named-errors';

describe('withStatesNamed', () => {
  it('names the states the SDK gives by number, as v0.3 spells them', () => {
    for (const [state, name] of [
      [TaskState.TASK_STATE_COMPLETED, 'completed'],
      [TaskState.TASK_STATE_INPUT_REQUIRED, 'input-required'],
    ] as const) {
      const error = withStatesNamed(
        new UnsupportedOperationError(`Task t is in a terminal state (${state}) and cannot be modified.`),
      ) as Error;
      expect(error).toBeInstanceOf(UnsupportedOperationError);
      expect(error.message).toBe(`Task t is in a terminal state (${name}) and cannot be modified.`);
    }
  });

  it('leaves other errors and messages as they are', () => {
    const other = new Error('state (3)');
    expect(withStatesNamed(other)).toBe(other);
    expect((withStatesNamed(new UnsupportedOperationError('no state here')) as Error).message).toBe('no state here');
  });
});
