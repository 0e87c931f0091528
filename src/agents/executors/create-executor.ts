import type { ExternalAgents } from '../../a2a-client/external-agents.service';
import type { AgentConfig } from '../../config/config.schema';
import { createGuardedFetch } from '../../security/guarded-fetch';
import type { OutboundUrlPolicy } from '../../security/outbound-url-policy';
import type { TaskActivity } from '../../tasks';
import type { AgentTurnExecutor } from '../agent-executor.interface';
import type { ToolPipeline } from '../tools/tool-pipeline.service';
import { A2aForwardingExecutor } from './a2a/a2a-forwarding.executor';
import { EchoExecutor } from './echo.executor';
import { ChatCompletionsClient } from './llm/chat-completions.client';
import { LlmExecutor } from './llm/llm.executor';
import { ScriptExecutor } from './script.executor';

export interface ExecutorDeps {
  tools: ToolPipeline;
  /** The SSRF rules every outbound URL (an LLM provider's included) passes. */
  outbound: OutboundUrlPolicy;
  externalAgents: ExternalAgents;
  /** Where a gateway agent records its delegations, for the operator's timeline. */
  activity: TaskActivity;
}

export function createExecutor(agent: AgentConfig, deps: ExecutorDeps): AgentTurnExecutor {
  const settings = agent.executor;
  switch (settings.type) {
    case 'echo':
      return new EchoExecutor(settings);
    case 'script':
      return new ScriptExecutor(settings);
    case 'llm':
      return new LlmExecutor(
        agent,
        settings,
        new ChatCompletionsClient(
          settings,
          createGuardedFetch(deps.outbound, { timeoutMs: settings.request_timeout_secs * 1000 }),
        ),
        deps.tools,
      );
    case 'a2a':
      return new A2aForwardingExecutor(
        deps.externalAgents.get(settings.agent),
        deps.externalAgents.settings,
        deps.activity,
      );
  }
}
