export const QueueName = {
  AgentTurns: 'agent-turns',
  PushDeliveries: 'push-deliveries',
  Maintenance: 'maintenance',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const JobName = {
  TaskRetention: 'task-retention',
  OrphanedTaskSweep: 'orphaned-task-sweep',
  AgentTurn: 'agent-turn',
  PushDelivery: 'push-delivery',
  AuditRetention: 'audit-retention',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];

/** The payload each job carries; a handler receives exactly this. */
export interface JobPayloads {
  [JobName.TaskRetention]: Record<string, never>;
  [JobName.OrphanedTaskSweep]: OrphanedTaskSweepPayload;
  [JobName.AgentTurn]: AgentTurnPayload;
  [JobName.PushDelivery]: PushDeliveryPayload;
  [JobName.AuditRetention]: Record<string, never>;
}

/** The periodic sweep's payload is empty; the sweep after a loss of the queue's data says what it looks at. */
export interface OrphanedTaskSweepPayload {
  /** Only tasks last written before this time (epoch ms), however long ago, rather than those idle `tasks.orphan_sweep_secs`. */
  writtenBefore?: number;
}

/** Who asked, so the worker reads and writes the task in the caller's scope. */
export interface CallerScope {
  tenant: string;
  userName: string;
  authenticated: boolean;
  /** The hosted agent the call serves, whose tasks it stores (the operator's views show it); absent when unknown. */
  agent?: string;
}

export interface AgentTurnPayload {
  agent: string;
  taskId: string;
  contextId: string;
  /** The SDK's SendMessageRequest as wire JSON, its message carrying the resolved task and context ids. */
  request: unknown;
  caller: CallerScope;
  /** The API already recorded the task as submitted (a non-blocking send answers with it at once). */
  announced: boolean;
  /**
   * The send started this task (its message named none), so unless it was announced the store holds
   * nothing of it when the turn's first attempt starts, and that attempt does not read it.
   */
  newTask?: boolean;
  /** The send registered a webhook for its task (its configuration's push notification config). */
  withWebhook?: boolean;
  /**
   * Until when (epoch ms) no client can know the id of the task this send starts but from the turn's
   * events, as the API decided it from its blocking-send deadline: before then no cancel or webhook
   * can have been set for a new task, and the turn's first attempt does not look for them.
   */
  idUnknownUntil?: number;
}

/**
 * A look at one task's outbox of notifications for one webhook (PushDeliveryJob). It carries no URL
 * and no credential: the worker reads the config by id when it delivers.
 */
export interface PushDeliveryPayload {
  taskId: string;
  /** The push notification config's id, in the scope of `caller`. */
  configId: string;
  caller: CallerScope;
}

/** What a handler may know about the delivery of its job besides the payload. */
export interface JobAttempt {
  /** 1 on the first run; more when the job is run again, e.g. after its worker died mid-job. */
  attemptsStarted: number;
  /** What an earlier run of the job saved of its progress (`saveProgress`); undefined when none did. */
  progress?: object;
  /**
   * Keeps `progress` with the job (in its queue's store), for a run that takes the job over when this
   * one's worker dies. Absent where nothing could take it over (a handler called directly).
   */
  saveProgress?: (progress: object) => Promise<void>;
  /**
   * Aborts when this process stops and the job cannot outlive it (embedded mode's queue, whose jobs
   * live in its memory): what the job has not done by then is lost, so the handler should record that
   * it ended and return. Absent where another worker takes the job over (BullMQ).
   */
  stopping?: AbortSignal;
}

/** Which queue each job travels on: turns and webhooks get their own so neither waits behind the other. */
export const QUEUE_OF_JOB: Record<JobName, QueueName> = {
  [JobName.TaskRetention]: QueueName.Maintenance,
  [JobName.OrphanedTaskSweep]: QueueName.Maintenance,
  [JobName.AgentTurn]: QueueName.AgentTurns,
  [JobName.PushDelivery]: QueueName.PushDeliveries,
  [JobName.AuditRetention]: QueueName.Maintenance,
};
