import { NamePatterns } from '../../common/name-patterns';
import type { UpstreamTaskRecord } from '../../mcp-client/mcp-tool-source.interface';
import { callWithinLimits, failure, type ToolCallOutcome, type ToolLimits } from './tool-limits';
import type { ToolCallContext, ToolDefinition, ToolProvider, ToolResult } from './tool-provider.interface';

/** The turn whose calls the session runs (what each call's provider is told), and what the agent may call. */
export interface ToolSessionScope extends ToolCallContext {
  /** The agent's allowlist (`tools` in its config). */
  allow: readonly string[];
  /** Calls the turn made before this session (on a worker that died), which count for the loop guard. */
  earlier?: readonly ToolCallRequest[];
}

export interface ToolCallRequest {
  name: string;
  args: Record<string, unknown>;
}

/** Told of every call once it is over: its tool, when it began (`performance.now()`) and how it went. */
export type ToolCallEnded = (name: string, startedMs: number, outcome: ToolCallOutcome) => void;

/**
 * The tools of one agent turn, and the one way its calls go: the allowlist, a loop guard (the same
 * call twice in a turn is refused), a timeout, results cut to a size a model can take, and a log
 * line and a metric per call (`ended`). Refusals and failures come back as error results for the
 * model to read; only the turn's own cancellation is thrown.
 */
export class ToolSession {
  readonly definitions: ToolDefinition[];
  private readonly allowlist: NamePatterns;
  private readonly context: ToolCallContext;
  private readonly calls = new Set<string>();

  constructor(
    private readonly providers: readonly ToolProvider[],
    scope: ToolSessionScope,
    private readonly limits: ToolLimits,
    private readonly ended: ToolCallEnded,
  ) {
    this.allowlist = new NamePatterns(scope.allow);
    const { allow: _allow, earlier = [], ...context } = scope;
    this.context = context;
    for (const { name, args } of earlier) this.calls.add(callKey(name, args));
    this.definitions = providers
      .flatMap((provider) => provider.definitions())
      .filter((tool) => this.allowlist.allows(tool.name));
  }

  /** `upstreamTask`: see ToolProvider.call. */
  async call(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    upstreamTask?: UpstreamTaskRecord,
  ): Promise<ToolResult> {
    const started = performance.now();
    const [outcome, result] = await this.run(name, args, signal, upstreamTask);
    this.ended(name, started, outcome);
    return result;
  }

  private async run(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    upstreamTask: UpstreamTaskRecord | undefined,
  ): Promise<[ToolCallOutcome, ToolResult]> {
    const provider = this.allowlist.allows(name) ? this.providers.find((candidate) => candidate.has(name)) : undefined;
    if (!provider) return ['refused', failure(`Tool "${name}" is not available to this agent.`)];
    const key = callKey(name, args);
    if (this.calls.has(key)) {
      return [
        'refused',
        failure(`Refused: "${name}" was already called with these arguments in this turn; use its earlier result.`),
      ];
    }
    this.calls.add(key);
    return callWithinLimits(provider, name, args, signal, this.limits, this.context, upstreamTask);
  }
}

function callKey(name: string, args: Record<string, unknown>): string {
  return `${name} ${canonicalJson(args)}`;
}

/** JSON with object keys sorted, so that the same arguments in another order count as the same call. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
