export const QueueName = {
  AgentTurns: 'agent-turns',
  Maintenance: 'maintenance',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const JobName = {
  TaskRetention: 'task-retention',
} as const;
export type JobName = (typeof JobName)[keyof typeof JobName];

/** The payload each job carries; a handler receives exactly this. */
export interface JobPayloads {
  [JobName.TaskRetention]: Record<string, never>;
}

/** Which queue each job travels on: turns get their own so maintenance never waits behind them. */
export const QUEUE_OF_JOB: Record<JobName, QueueName> = {
  [JobName.TaskRetention]: QueueName.Maintenance,
};
