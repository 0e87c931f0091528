/**
 * Code outside src/tasks trying to write a task, as it could before src/tasks existed. Never run:
 * `npm run typecheck` compiles it, and every `@ts-expect-error` below must meet an error, so the
 * check fails the day one of these writes compiles. The other way in, importing task-store's
 * TaskStore, is refused by layers.spec.ts.
 */
import type { Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskLifecycle } from '../../src/tasks/lifecycle/task-lifecycle.service';
import type { TaskView } from '../../src/tasks/task-view';

export async function writeFromOutside(
  view: TaskView,
  lifecycle: TaskLifecycle,
  task: Task,
  context: ServerCallContext,
): Promise<void> {
  // @ts-expect-error the view reads; it has no save
  await view.save(task, context);
  // @ts-expect-error nor a conditional write
  await view.saveUnlessEnded(task, context);
  // @ts-expect-error its event feed is read-only: events are published by the turn's recorder
  await view.events.publish(task.id, []);
  // @ts-expect-error the lifecycle keeps its store to itself
  await lifecycle.store.save(task, context);
  // @ts-expect-error and its event stream
  await lifecycle.stream.publish(task.id, []);
}
