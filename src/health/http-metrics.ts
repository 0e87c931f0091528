import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { JOB_QUEUE, JobQueue } from '../queue/job-queue.interface';
import { MetricsService, Sample } from '../metrics/metrics.service';
import { TaskView } from '../tasks';

/**
 * The API's own series: HTTP latency by route template, and queue depth and tasks by state, which
 * every replica reads from the shared stores at scrape time (workers do not: one reading is enough).
 */
@Injectable()
export class HttpMetrics implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly metrics: MetricsService,
    @Inject(JOB_QUEUE) queue: JobQueue,
    tasks: TaskView,
  ) {
    metrics.queueJobs.readFrom(async () => {
      const samples: Sample<'queue' | 'state'>[] = [];
      for (const [name, counts] of Object.entries(await queue.counts())) {
        for (const [state, value] of Object.entries(counts)) samples.push([{ queue: name, state }, value]);
      }
      return samples;
    });
    metrics.tasks.readFrom(async () =>
      Object.entries(await tasks.countByState()).map(([state, value]): Sample<'state'> => [{ state }, value]),
    );
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', async (request, reply) => {
      if (this.metrics.wasStream(reply.raw)) return;
      // The route template, not the URL, keeps label cardinality bounded; unmatched URLs share one label.
      this.metrics.httpRequest(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    });
  }
}
