/** The agent runtime: configured agents, their tools, and their turns on the queue's workers. */
import { Module } from '@nestjs/common';
import { A2aClientModule } from '../a2a-client/a2a-client.module';
import { McpClientModule } from '../mcp-client/mcp-client.module';
import { MCP_TOOL_SOURCE, McpToolSource } from '../mcp-client/mcp-tool-source.interface';
import { AgentRegistry } from './agent-registry.service';
import { BuiltinToolProvider } from './tools/builtin-tool.provider';
import { DelegationToolProvider } from './tools/delegation/delegation-tool.provider';
import { ToolPipeline } from './tools/tool-pipeline.service';
import { McpToolProvider } from './tools/mcp-tool.provider';
import { TOOL_PROVIDERS, ToolProvider } from './tools/tool-provider.interface';
import { TurnRunner } from './turns/turn-runner.service';

@Module({
  imports: [McpClientModule, A2aClientModule],
  providers: [
    AgentRegistry,
    TurnRunner,
    ToolPipeline,
    BuiltinToolProvider,
    DelegationToolProvider,
    {
      provide: TOOL_PROVIDERS,
      inject: [MCP_TOOL_SOURCE, BuiltinToolProvider],
      useFactory: (mcp: McpToolSource, builtin: BuiltinToolProvider): ToolProvider[] => [
        new McpToolProvider(mcp),
        builtin,
      ],
    },
  ],
  exports: [AgentRegistry, BuiltinToolProvider, ToolPipeline],
})
export class AgentsModule {}
