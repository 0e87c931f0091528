import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { OnJob } from '../queue/on-job.decorator';
import { JobName } from '../queue/queue.constants';
import { AUDIT_STORE, AuditStore } from './audit-store.interface';

const DAY_MS = 24 * 3600 * 1000;

/** The periodic job that removes audit entries older than `audit.retention_days`. */
@Injectable()
export class AuditRetentionJob {
  private readonly logger = new Logger(AuditRetentionJob.name);

  constructor(
    @Inject(AUDIT_STORE) private readonly store: AuditStore,
    private readonly config: ConfigService<SwitchboardConfig, true>,
  ) {}

  @OnJob(JobName.AuditRetention)
  async run(): Promise<{ removed: number }> {
    const { retention_days } = this.config.get('audit', { infer: true });
    const removed = await this.store.removeBefore(new Date(Date.now() - retention_days * DAY_MS));
    if (removed > 0) this.logger.log({ removed }, 'retention removed audit entries');
    return { removed };
  }
}
