import { createHash } from 'node:crypto';

/**
 * The job id of the turn that answers message `messageId` of task `taskId`: the same turn always gets
 * the same id, so enqueueing it twice (a retried enqueue, a duplicate send) queues it once, and the
 * queue can tell whether a task's turn is waiting or running. Hashed: BullMQ ids must not contain `:`,
 * and client-chosen ids may.
 */
export function agentTurnJobId(taskId: string, messageId: string): string {
  return `turn-${createHash('sha256').update(taskId).update('\0').update(messageId).digest('base64url')}`;
}
