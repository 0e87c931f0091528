/**
 * Task ids are unique across scopes: saving a task whose id already belongs to another tenant or
 * owner is refused rather than letting one caller overwrite another's task.
 */
export class TaskScopeConflictError extends Error {
  constructor(readonly taskId: string) {
    super(`Task ${taskId} belongs to another tenant or owner`);
    this.name = 'TaskScopeConflictError';
  }
}
