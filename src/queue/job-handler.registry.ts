import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ON_JOB_METADATA } from './on-job.decorator';
import { JobAttempt, JobName, JobPayloads } from './queue.constants';

type JobHandler = (payload: unknown, attempt: JobAttempt) => Promise<unknown>;

/**
 * Finds the @OnJob methods at boot and refuses to start when a job has no handler or two, so a
 * missing handler is a boot error rather than jobs silently piling up.
 */
@Injectable()
export class JobHandlerRegistry implements OnModuleInit {
  private readonly handlers = new Map<string, { handler: JobHandler; owner: string }>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const name = this.reflector.get<string | undefined>(ON_JOB_METADATA, instance[method] as never);
        if (name) this.register(name, `${wrapper.name}.${method}`, (instance[method] as JobHandler).bind(instance));
      }
    }
    const missing = Object.values(JobName).filter((name) => !this.handlers.has(name));
    if (missing.length > 0) {
      throw new Error(
        `No handler for job(s) ${missing.join(', ')}: mark one provider method per job with @OnJob(JobName...) and make sure its module is imported`,
      );
    }
  }

  async dispatch<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    attempt: JobAttempt = { attemptsStarted: 1 },
  ): Promise<unknown> {
    const entry = this.handlers.get(name);
    if (!entry) throw new Error(`No handler for job "${name}"`);
    return entry.handler(payload, attempt);
  }

  private register(name: string, owner: string, handler: JobHandler): void {
    if (!(Object.values(JobName) as string[]).includes(name)) {
      throw new Error(`${owner} handles unknown job "${name}": add it to JobName in queue.constants.ts`);
    }
    const existing = this.handlers.get(name);
    if (existing) throw new Error(`Job "${name}" has two handlers: ${existing.owner} and ${owner}; keep exactly one`);
    this.handlers.set(name, { handler, owner });
  }
}
