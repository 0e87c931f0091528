import { Logger } from '@nestjs/common';
import { ToolAllowlist } from './tool-allowlist';
import type { ToolDefinition, ToolProvider, ToolResult } from './tool-provider.interface';

export interface ToolSessionScope {
  taskId: string;
  agent: string;
  /** The agent's allowlist (`tools` in its config). */
  allow: readonly string[];
}

export interface ToolLimits {
  timeoutMs: number;
  maxResultChars: number;
}

type Outcome = 'ok' | 'tool_error' | 'refused' | 'timeout' | 'failed';

const logger = new Logger('ToolCall');

/**
 * The tools of one agent turn, and the one way its calls go: the allowlist, a loop guard (the same
 * call twice in a turn is refused), a timeout, results cut to a size a model can take, and a log
 * line per call. Refusals and failures come back as error results for the model to read; only the
 * turn's own cancellation is thrown.
 */
export class ToolSession {
  readonly definitions: ToolDefinition[];
  private readonly allowlist: ToolAllowlist;
  private readonly calls = new Set<string>();

  constructor(
    private readonly providers: readonly ToolProvider[],
    private readonly scope: ToolSessionScope,
    private readonly limits: ToolLimits,
  ) {
    this.allowlist = new ToolAllowlist(scope.allow);
    this.definitions = providers.flatMap((provider) => provider.definitions()).filter((tool) => this.allowlist.allows(tool.name));
  }

  async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const started = Date.now();
    const [outcome, result] = await this.run(name, args, signal);
    logger.log({ taskId: this.scope.taskId, agent: this.scope.agent, tool: name, durationMs: Date.now() - started, outcome }, 'tool call');
    return result;
  }

  private async run(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<[Outcome, ToolResult]> {
    const provider = this.allowlist.allows(name) ? this.providers.find((candidate) => candidate.has(name)) : undefined;
    if (!provider) return ['refused', failure(`Tool "${name}" is not available to this agent.`)];
    const key = `${name} ${canonicalJson(args)}`;
    if (this.calls.has(key)) {
      return ['refused', failure(`Refused: "${name}" was already called with these arguments in this turn; use its earlier result.`)];
    }
    this.calls.add(key);
    const timeout = AbortSignal.timeout(this.limits.timeoutMs);
    try {
      const result = await provider.call(name, args, AbortSignal.any([signal, timeout]));
      return [result.isError ? 'tool_error' : 'ok', { ...result, text: truncated(result.text, this.limits.maxResultChars) }];
    } catch (error) {
      if (signal.aborted) throw error;
      if (timeout.aborted) return ['timeout', failure(`Tool "${name}" did not answer within ${this.limits.timeoutMs} ms.`)];
      return ['failed', failure(`Tool "${name}" failed: ${(error as Error).message}`)];
    }
  }
}

/** An error result: the tool refused or failed, and the model reads why. */
export function failure(text: string): ToolResult {
  return { text, isError: true };
}

/** Cut at `max` characters with a marker saying so, so the model knows it saw part of the result. */
export function truncated(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[truncated: ${max} of ${text.length} characters shown]`;
}

/** JSON with object keys sorted, so that the same arguments in another order count as the same call. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
