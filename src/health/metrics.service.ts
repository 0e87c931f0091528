import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { JOB_QUEUE, JobQueue } from '../queue/job-queue.interface';
import { TASK_STORE, TaskStore } from '../task-store/task-store.interface';

/** Prometheus metrics: HTTP latency by route template, queue depth and tasks by state (read at scrape time). */
@Injectable()
export class MetricsService implements OnModuleInit {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'switchboard_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(JOB_QUEUE) queue: JobQueue,
    @Inject(TASK_STORE) tasks: TaskStore,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'switchboard_' });
    new Gauge({
      name: 'switchboard_queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [name, counts] of Object.entries(await queue.counts())) {
          for (const [state, value] of Object.entries(counts)) this.set({ queue: name, state }, value);
        }
      },
    });
    new Gauge({
      name: 'switchboard_tasks',
      help: 'A2A tasks by state',
      labelNames: ['state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [state, value] of Object.entries(await tasks.countByState())) this.set({ state }, value);
      },
    });
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', async (request, reply) => {
      // The route template, not the URL, keeps label cardinality bounded; unmatched URLs share one label.
      const route = request.routeOptions.url ?? 'unmatched';
      this.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
  }
}
