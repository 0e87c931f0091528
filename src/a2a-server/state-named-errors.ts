import { type TaskState } from '@a2a-js/sdk';
import { A2AError } from '@a2a-js/sdk/errors';
import { stateLabel } from '../common/task-states';

/** How the SDK's request handler names a task's state in its errors: by enum number, `terminal state (3)`. */
const STATE_NUMBER = /\bstate \((-?\d+)\)/g;

/** The error, with any task state the SDK gave by number named instead (`terminal state (completed)`). */
export function withStatesNamed(error: unknown): unknown {
  if (error instanceof A2AError) {
    error.message = error.message.replace(
      STATE_NUMBER,
      (_, state: string) => `state (${stateLabel(Number(state) as TaskState)})`,
    );
  }
  return error;
}

/** `call`'s result, or its error with task states named. */
export async function namingStates<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw withStatesNamed(error);
  }
}

/** `events`, ending with its error with task states named. */
export async function* streamNamingStates<T>(
  events: AsyncGenerator<T, void, undefined>,
): AsyncGenerator<T, void, undefined> {
  try {
    yield* events;
  } catch (error) {
    throw withStatesNamed(error);
  }
}
