import { ConsoleLogger } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test, type TestingModule } from '@nestjs/testing';
import type { AgentTurnExecutor } from '../../src/agents/agent-executor.interface';
import { AgentRegistry, type HostedAgent } from '../../src/agents/agent-registry.service';
import { AuditModule } from '../../src/audit/audit.module';
import { TurnRunner } from '../../src/agents/turns/turn-runner.service';
import { configSchema, type SwitchboardConfig } from '../../src/config/config.schema';
import { storageMode } from '../../src/config/storage-mode';
import { MetricsModule } from '../../src/metrics/metrics.module';
import { QueueModule } from '../../src/queue/queue.module';
import { OutboundModule } from '../../src/security/outbound.module';
import { MemoryTaskStore } from '../../src/task-store/memory-task-store';
import { TASK_STORE, type TaskStore } from '../../src/task-store/task-store.interface';
import { TaskStoreModule } from '../../src/task-store/task-store.module';
import { TasksModule } from '../../src/tasks/tasks.module';

export interface EmbeddedTurnsOptions {
  /** The task store, in place of a fresh MemoryTaskStore (one whose writes can be made to fail). */
  store?: TaskStore;
  /** `[tasks]` settings over the defaults. */
  tasks?: Partial<SwitchboardConfig['tasks']>;
}

/**
 * Embedded mode as AppModule wires it with neither DATABASE_URL nor REDIS_URL: the memory task store,
 * memory event streams and cancel signals, the in-process job queue, the task lifecycle; with
 * TurnRunner running the turns of `executors`, by agent name, in place of the configured agents.
 * No HTTP, no Postgres, no Redis: what fast specs of a turn's path stand on. `close()` it after.
 */
export async function embeddedTurns(
  executors: Record<string, AgentTurnExecutor>,
  { store = new MemoryTaskStore(), tasks = {} }: EmbeddedTurnsOptions = {},
): Promise<TestingModule> {
  const config = configSchema.parse({
    log: { level: 'silent' },
    tasks,
    agents: Object.keys(executors).map((name) => ({ name, executor: { type: 'echo' } })),
  });
  const hosted = new Map<string, HostedAgent>(
    config.agents.map((agent) => [agent.name, { config: agent, executor: executors[agent.name] }]),
  );
  const agents: Pick<AgentRegistry, 'find'> = { find: (name) => hosted.get(name) };
  const mode = storageMode(config);
  const module = await Test.createTestingModule({
    imports: [
      ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
      MetricsModule,
      TaskStoreModule.forRoot(mode),
      QueueModule.forRoot(mode, true, config.queue),
      OutboundModule,
      TasksModule.forRoot(mode),
      AuditModule.forRoot(mode),
    ],
    providers: [TurnRunner, { provide: AgentRegistry, useValue: agents }],
  })
    .overrideProvider(TASK_STORE)
    .useValue(store)
    // Quiet as `log.level = "silent"`: the failures the specs provoke are logged as errors.
    .setLogger(new ConsoleLogger({ logLevels: [] }))
    .compile();
  return module.init();
}
