/** The MCP server: hosted agents, built-in tools and connected MCP tools as MCP tools, and the ARDF MCP<->A2A bridge, over Streamable HTTP at `/mcp` and stdio, for clients of both protocol eras. */
import { DynamicModule, Module, Provider } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import type { StorageMode } from '../config/storage-mode';
import { A2aClientModule } from '../a2a-client/a2a-client.module';
import { A2aHandlersModule } from '../a2a-server/a2a-handlers.module';
import { AgentsModule } from '../agents/agents.module';
import { McpClientModule } from '../mcp-client/mcp-client.module';
import { RedisService } from '../redis/redis.service';
import { AgentToolCall } from './tools/agent-tool-call';
import { AskCaller } from './tools/ask-caller';
import { CallerRequests } from './sessions/caller-requests';
import { McpTasks } from './mcp-tasks/mcp-tasks.service';
import { InputRequiredRounds } from './tools/input-required-rounds';
import { CancelledRequests } from './sessions/cancelled-requests';
import { McpController } from './http/mcp.controller';
import { McpHttpEndpoint } from './http/mcp-http-endpoint.service';
import { MCP_EVENT_STORE } from './stores/mcp-event-store.interface';
import { MCP_SESSION_STORE } from './stores/mcp-session-store.interface';
import { MemoryMcpEventStore } from './stores/memory-mcp-event-store';
import { RedisMcpEventStore } from './stores/redis-mcp-event-store';
import { MemoryMcpSessionStore } from './stores/memory-mcp-session-store';
import { RedisMcpSessionStore } from './stores/redis-mcp-session-store';
import { LocalSubscriptionChanges } from './sessions/session-subscriptions';
import { SubagentBridge } from './bridge/subagent-bridge';
import { SwitchboardMcpServerFactory } from './server/switchboard-mcp-server.factory';
import { TaskUpdates } from './bridge/task-updates';
import { ToolListChanges } from './server/tool-list-changes';
import { UpstreamToolCall } from './tools/upstream-tool-call';

type Config = ConfigService<SwitchboardConfig, true>;

const sessionTtlSecs = (config: Config) => config.get('mcp_server', { infer: true }).session_ttl_secs;

function sessionStore(mode: StorageMode): Provider {
  return mode.shared === 'redis'
    ? {
        provide: MCP_SESSION_STORE,
        inject: [RedisService, ConfigService],
        useFactory: (redis: RedisService, config: Config) => new RedisMcpSessionStore(redis, sessionTtlSecs(config)),
      }
    : {
        provide: MCP_SESSION_STORE,
        inject: [ConfigService],
        useFactory: (config: Config) => new MemoryMcpSessionStore(sessionTtlSecs(config) * 1000),
      };
}

function eventStore(mode: StorageMode): Provider {
  return mode.shared === 'redis'
    ? {
        provide: MCP_EVENT_STORE,
        inject: [RedisService],
        useFactory: (redis: RedisService) => new RedisMcpEventStore(redis),
      }
    : { provide: MCP_EVENT_STORE, useValue: new MemoryMcpEventStore() };
}

@Module({})
export class McpServerModule {
  /** Agent tools run their turns through the A2A handlers; the bridge builds hosted agents' cards as the A2A server does. */
  static forRoot(mode: StorageMode): DynamicModule {
    return {
      module: McpServerModule,
      imports: [A2aHandlersModule, McpClientModule, AgentsModule, A2aClientModule],
      controllers: [McpController],
      providers: [
        sessionStore(mode),
        eventStore(mode),
        AgentToolCall,
        UpstreamToolCall,
        AskCaller,
        CallerRequests,
        McpTasks,
        InputRequiredRounds,
        CancelledRequests,
        SubagentBridge,
        TaskUpdates,
        LocalSubscriptionChanges,
        ToolListChanges,
        SwitchboardMcpServerFactory,
        McpHttpEndpoint,
      ],
    };
  }
}
