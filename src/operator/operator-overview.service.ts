import { Inject, Injectable } from '@nestjs/common';
import { TERMINAL_STATE_NAMES } from '../common/task-states';
import { MetricsService } from '../metrics/metrics.service';
import { PROCESS_PRESENCE, ProcessInfo, ProcessPresence } from '../presence/process-presence.interface';
import { JOB_QUEUE, JobQueue, QueueCounts } from '../queue/job-queue.interface';
import { QueueName } from '../queue/queue.constants';
import { TaskView } from '../tasks';
import { queueWaitMedians } from './queue-wait';

const HOUR_MS = 3_600_000;
/** A turn ends in a final state or by asking for input; these are the tasks a turn ended in the last hour. */
const TURN_END_STATES = [...TERMINAL_STATE_NAMES, 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED'];

export interface OperatorOverview {
  processes: ProcessInfo[];
  queues: Record<string, QueueCounts>;
  /** Median wait for a worker, in seconds, per queue; null when unknown. */
  queueWait: Record<string, number | null>;
  /** Where `queueWait` comes from: it cannot be known across processes. */
  queueWaitScope: { replica: string; note: string };
  tasks: { byState: Record<string, number> };
  errors: { turnsFailedLastHour: number; turnsLastHour: number; basis: string };
}

/** The operator's overview: processes alive, queues, tasks by state, and how turns went in the last hour. */
@Injectable()
export class OperatorOverviewService {
  constructor(
    @Inject(PROCESS_PRESENCE) private readonly presence: ProcessPresence,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly tasks: TaskView,
    private readonly metrics: MetricsService,
  ) {}

  async overview(): Promise<OperatorOverview> {
    const [processes, queues, queueWait, byState, lastHour] = await Promise.all([
      this.presence.list(),
      this.queue.counts(),
      queueWaitMedians(this.metrics.registry, Object.values(QueueName)),
      this.tasks.countByState(),
      this.tasks.countByStateSince(new Date(Date.now() - HOUR_MS)),
    ]);
    return {
      processes,
      queues,
      queueWait,
      queueWaitScope: {
        replica: this.presence.self.id,
        note: 'jobs started by this process since it started (each process measures its own; a replica that runs no workers has none)',
      },
      tasks: { byState },
      errors: {
        turnsFailedLastHour: lastHour.TASK_STATE_FAILED ?? 0,
        turnsLastHour: TURN_END_STATES.reduce((sum, state) => sum + (lastHour[state] ?? 0), 0),
        basis:
          'tasks last written in the past hour, across every process: those left failed, of those left in a final state or asking for input',
      },
    };
  }
}
