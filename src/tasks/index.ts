/**
 * What code outside src/tasks may use of it, and the one way in (test/architecture/layers.ts refuses
 * imports of the files behind it): reads of tasks (TaskView, and the turn under way as a reader
 * joining it sees it), the lifecycle that alone writes them and the publisher executors write a turn
 * with, the live signals (task changes, cancel signals), activity and webhook configs.
 */
export { TasksModule } from './tasks.module';
export {
  TaskView,
  type TaskEventFeed,
  type ListPosition,
  type OperatorTaskPage,
  type OperatorTaskQuery,
  type TaskRecord,
} from './task-view';
export { callContextOf, callerScopeOf, attachEndpointAgents, attachTaskAgent } from './caller-scope';

export { TaskLifecycle } from './lifecycle/task-lifecycle.service';
export { TaskCanceller } from './lifecycle/task-canceller.service';
export { TurnRecorder } from './lifecycle/turn-recorder';
export { TurnPublisher, withMessage } from './lifecycle/turn-publisher';
export { currentTurn } from './lifecycle/turn-replay';
export { NOT_STORED_TEXT, TurnNotRecordedError, wasNeverStored } from './lifecycle/turn-not-recorded.error';

export { toAgentEvent } from './events/stream-events';
export { TASK_CHANGES, type TaskChange, type TaskChanges } from './events/task-change';
export type { KeptTaskEvent } from './events/task-event-stream.interface';
export { CANCEL_SIGNALS, type CancelSignals, type CancelWatch } from './cancel/cancel-signals.interface';
export { PUSH_CONFIGS } from './push/push-configs.token';
export { TaskActivity } from './activity/task-activity.service';
export type { TaskActivityEntry } from './activity/task-activity.interface';
