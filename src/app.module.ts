/** Root module: wires one module per role from the validated config. */
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { ExternalAgentsViewModule } from './a2a-client/external-agents-view.module';
import { A2aHandlersModule } from './a2a-server/a2a-handlers.module';
import { A2aServerModule } from './a2a-server/a2a-server.module';
import { AuditModule } from './audit/audit.module';
import { CatalogModule } from './catalog/catalog.module';
import { AgentsModule } from './agents/agents.module';
import type { SwitchboardConfig } from './config/config.schema';
import { ConsoleModule } from './console/console.module';
import { storageMode } from './config/storage-mode';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { WorkerHealthModule } from './health/worker-health.module';
import { LoggingModule } from './logging/logging.module';
import { McpClientModule } from './mcp-client/mcp-client.module';
import { McpServersViewModule } from './mcp-client/mcp-servers-view.module';
import { McpServerModule } from './mcp-server/mcp-server.module';
import { OperatorModule } from './operator/operator.module';
import { PresenceModule } from './presence/presence.module';
import { ProcessRole } from './process-role';
import { QueueModule } from './queue/queue.module';
import { RedisModule } from './redis/redis.module';
import { AuthenticationModule } from './security/authentication.module';
import { OutboundModule } from './security/outbound.module';
import { SecurityModule } from './security/security.module';
import { TaskStoreModule } from './task-store/task-store.module';
import { TasksModule } from './tasks';

@Module({})
export class AppModule {
  static forRoot(config: SwitchboardConfig, role: ProcessRole): DynamicModule {
    const mode = storageMode(config);
    const protocols = config.a2a.enabled
      ? [
          A2aServerModule.forRoot(config.a2a, role === 'api'),
          ...(config.mcp_server.enabled ? [McpServerModule.forRoot(mode)] : []),
        ]
      : [];
    const api = [
      SecurityModule.forRoot(mode, config.auth),
      HealthModule,
      ExternalAgentsViewModule,
      McpServersViewModule,
      ...protocols,
      ...(config.a2a.enabled ? [OperatorModule, ConsoleModule] : []),
    ];
    // No HTTP face: a2a_send runs delegated tasks through the A2A handlers alone.
    const worker = [WorkerHealthModule, ...(config.a2a.enabled ? [A2aHandlersModule] : [])];
    const served = role === 'api' ? api : role === 'stdio' ? protocols : worker;
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => config] }),
        LoggingModule.forRoot(config.log),
        MetricsModule,
        RedisModule.forRoot(mode.shared === 'redis'),
        DatabaseModule.forRoot(mode.tasks === 'postgres'),
        TaskStoreModule.forRoot(mode),
        QueueModule.forRoot(mode, role === 'worker' || config.queue.worker_in_api, config.queue),
        OutboundModule,
        AuthenticationModule.forRoot(config.auth),
        TasksModule.forRoot(mode),
        AuditModule.forRoot(mode),
        CatalogModule.forRoot(config, mode),
        AgentsModule,
        McpClientModule,
        ...(role === 'stdio' ? [] : [PresenceModule.forRoot(mode, role)]),
        ...served,
      ],
    };
  }
}
