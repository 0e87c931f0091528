import { Inject, Injectable, Optional } from '@nestjs/common';
import { CatalogSync } from '../catalog/catalog-sync.service';
import { withTimeout } from '../common/with-timeout';
import { PrismaService } from '../database/prisma.service';
import { JOB_QUEUE, JobQueue } from '../queue/job-queue.interface';
import { RedisService } from '../redis/redis.service';
import { TokenVerifier } from '../security/token-verifier';

const CHECK_TIMEOUT_MS = 1_500;

export interface DependencyStatus {
  status: 'up' | 'down';
  error?: string;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, DependencyStatus>;
}

/**
 * Checks shown but not counted against readiness: with its issuers' keys unreachable, a replica
 * still serves API keys and tokens signed by keys it holds; with a catalog change refused (a bad
 * file), it serves the last good catalog. Counted, either would take every replica out at once.
 */
const REPORTED_ONLY = new Set(['issuers', 'catalog']);

/** Asks each dependency this process uses whether it answers now; never waits longer than the timeout. */
@Injectable()
export class ReadinessService {
  constructor(
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Optional() private readonly database?: PrismaService,
    @Optional() private readonly redis?: RedisService,
    @Optional() private readonly tokens?: TokenVerifier,
    @Optional() private readonly catalog?: CatalogSync,
  ) {}

  async check(): Promise<Readiness> {
    const probes: Record<string, () => Promise<void>> = { queue: () => this.queue.ping(CHECK_TIMEOUT_MS) };
    if (this.database) {
      // Answering is not enough: a standby or a read-only server answers while every task write fails.
      probes.postgres = () => this.database!.checkWritable(CHECK_TIMEOUT_MS);
      // Tables dropped or never migrated: Postgres answers, but every task query would fail.
      probes.schema = () => this.database!.checkSchema(CHECK_TIMEOUT_MS);
    }
    if (this.redis) probes.redis = () => this.redis!.ping(CHECK_TIMEOUT_MS);
    if (this.catalog) {
      probes.catalog = () => this.catalogProblem();
      // Counted: until the admin API's keys and rules are read, this process does not know them.
      const unread = this.catalog.unread;
      if (unread) probes.catalog_entries = () => Promise.reject(new Error(unread));
    }
    if (this.tokens) probes.issuers = () => withTimeout(this.tokens!.checkKeys(), CHECK_TIMEOUT_MS, 'issuer keys');
    const results = await Promise.all(
      Object.entries(probes).map(async ([name, probe]): Promise<[string, DependencyStatus]> => {
        try {
          await probe();
          return [name, { status: 'up' }];
        } catch (error) {
          return [name, { status: 'down', error: (error as Error).message }];
        }
      }),
    );
    const checks = Object.fromEntries(results);
    return { ready: results.every(([name, result]) => result.status === 'up' || REPORTED_ONLY.has(name)), checks };
  }

  private async catalogProblem(): Promise<void> {
    const problem = this.catalog!.problem;
    if (problem) throw new Error(problem);
  }
}
