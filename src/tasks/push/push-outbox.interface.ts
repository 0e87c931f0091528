export const PUSH_OUTBOX = Symbol('PUSH_OUTBOX');

/** A pending outbox is dropped this long after its last notification was added (a webhook down for a day). */
export const PUSH_OUTBOX_TTL_SECS = 24 * 3600;

/** One notification waiting for its webhook: the body of its event, in the wire version the config was registered over. */
export interface PendingNotification {
  body: string;
  contentType: string;
  /** Failed deliveries so far. */
  attempts: number;
  /** Not to be tried again before this (ms since the epoch); 0 at first. */
  retryAt: number;
}

/**
 * A task's notifications for one webhook, in the order of their events, delivered one at a time by
 * whichever worker holds the outbox's claim (PushDeliveryJob): a receiver gets one task's events in
 * order, while different tasks and webhooks are delivered side by side. Its bodies carry no URL and
 * no credential; those are read from the config at delivery.
 */
export interface PushOutbox {
  append(
    taskId: string,
    configId: string,
    notifications: Pick<PendingNotification, 'body' | 'contentType'>[],
  ): Promise<void>;
  /** Takes the outbox for delivering, for `ttlMs` (renewable); false when another holder has it. */
  claim(taskId: string, configId: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Keeps the claim for `ttlMs` more, if `holder` still has it. */
  renew(taskId: string, configId: string, holder: string, ttlMs: number): Promise<void>;
  release(taskId: string, configId: string, holder: string): Promise<void>;
  /** The oldest notification; undefined when none waits. */
  head(taskId: string, configId: string): Promise<PendingNotification | undefined>;
  /** Removes the oldest (delivered, or given up). */
  shift(taskId: string, configId: string): Promise<void>;
  /** Replaces the oldest with `head` (its attempts and retry time after a failure). */
  updateHead(taskId: string, configId: string, head: PendingNotification): Promise<void>;
  /** Drops every notification (the config was deleted). */
  clear(taskId: string, configId: string): Promise<void>;
}
