import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../../config/config.schema';
import { MetricsService } from '../../metrics/metrics.service';
import { TaskActivity, type TaskActivityEntry } from '../../tasks';
import {
  failure,
  ResultLimiter,
  runWithinLimits,
  TEXT_RESULT_LIMITER,
  ToolCallOutcome,
  ToolLimits,
} from './tool-limits';
import { TOOL_PROVIDERS, ToolOrigin, ToolProvider, ToolResult } from './tool-provider.interface';
import { ToolSession, ToolSessionScope } from './tool-session';

const logger = new Logger('ToolCall');
const UNKNOWN_ORIGIN: ToolOrigin = { kind: 'unknown', server: '' };

/** A turn's tool call on its task's timeline: the tool, who serves it, how it went; never its arguments or result. */
function toolCallEntry(
  name: string,
  { kind, server }: ToolOrigin,
  startedMs: number,
  outcome: ToolCallOutcome,
): TaskActivityEntry {
  const durationMs = Math.round(performance.now() - startedMs);
  const source = server ? `${kind}: ${server}` : kind;
  return {
    at: new Date(Date.now() - durationMs).toISOString(),
    kind: 'tool_call',
    summary: `${name} (${source})`,
    durationMs,
    outcome,
    detail: { tool: name, source: kind, ...(server && { server }) },
  };
}

/** Every tool an agent may call, from every provider, each turn's calls going through one ToolSession. */
@Injectable()
export class ToolPipeline {
  private readonly providers: ToolProvider[];
  private readonly limits: ToolLimits;

  constructor(
    @Inject(TOOL_PROVIDERS) providers: ToolProvider[],
    private readonly metrics: MetricsService,
    private readonly activity: TaskActivity,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.providers = [...providers];
    const tools = config.get('tools', { infer: true });
    this.limits = { timeoutMs: tools.timeout_secs * 1000, maxResultChars: tools.max_result_chars };
  }

  /**
   * A provider that cannot be one of TOOL_PROVIDERS because it needs the agents, which are built on
   * this pipeline: the delegation tools (their rules read the agents' delegates). Such a provider
   * registers itself as it is built, before any turn can run (queue workers may start during the
   * init hooks); sessions opened afterwards offer its tools.
   */
  addProvider(provider: ToolProvider): void {
    this.providers.push(provider);
  }

  session(scope: ToolSessionScope): ToolSession {
    return new ToolSession(this.providers, scope, this.limits, (name, startedMs, outcome) => {
      const origin = this.originOf(name);
      this.ended(name, origin, startedMs, outcome, { taskId: scope.taskId, agent: scope.agent });
      void this.activity.record(scope.taskId, toolCallEntry(name, origin, startedMs, outcome));
    });
  }

  /** A call from outside any agent turn (an MCP client's): the same limits and log line, no agent allowlist. */
  async call(name: string, args: Record<string, unknown>, signal: AbortSignal, caller: string): Promise<ToolResult> {
    const provider = this.providers.find((candidate) => candidate.has(name));
    if (!provider) return failure(`Unknown tool "${name}".`);
    return this.bounded(name, caller, signal, TEXT_RESULT_LIMITER, (bounded) => provider.call(name, args, bounded));
  }

  /**
   * `run`, a call of tool `name` from outside any agent turn, under the same limits and with the
   * same log line, for results of any kind (an MCP client of `/mcp` gets the upstream's whole result).
   */
  async bounded<R extends { isError?: boolean }>(
    name: string,
    caller: string,
    signal: AbortSignal,
    limiter: ResultLimiter<R>,
    run: (signal: AbortSignal) => Promise<R>,
  ): Promise<R> {
    const started = performance.now();
    const origin = this.originOf(name);
    const [outcome, result] = await runWithinLimits(name, signal, this.limits, limiter, run, origin);
    this.ended(name, origin, started, outcome, { caller });
    return result;
  }

  /** Every call's log line and metric, in a turn or not; `origin` served the tool, `fields` say who called. */
  private ended(
    name: string,
    origin: ToolOrigin,
    startedMs: number,
    outcome: ToolCallOutcome,
    fields: Record<string, unknown>,
  ): void {
    const ms = performance.now() - startedMs;
    logger.log({ ...fields, tool: name, durationMs: Math.round(ms), outcome }, 'tool call');
    this.metrics.toolCallEnded(origin.kind, origin.server, outcome, ms / 1000);
  }

  private originOf(name: string): ToolOrigin {
    for (const provider of this.providers) {
      const origin = provider.originOf(name);
      if (origin) return origin;
    }
    return UNKNOWN_ORIGIN;
  }
}
