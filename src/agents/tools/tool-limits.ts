import type { UpstreamTaskRecord } from '../../mcp-client/mcp-tool-source.interface';
import { inSpan } from '../../tracing/spans';
import type { ToolCallContext, ToolOrigin, ToolProvider, ToolResult } from './tool-provider.interface';

export interface ToolLimits {
  timeoutMs: number;
  maxResultChars: number;
}

export type ToolCallOutcome = 'ok' | 'tool_error' | 'refused' | 'timeout' | 'failed';

/** How the limits apply to one kind of result: how to cut one to a size, how to say a call failed, and its size in characters. */
export interface ResultLimiter<R extends { isError?: boolean }> {
  cut(result: R, maxChars: number): R;
  fail(text: string): R;
  size(result: R): number;
}

/** A model's text results. */
export const TEXT_RESULT_LIMITER: ResultLimiter<ToolResult> = {
  cut: (result, maxChars) => ({ ...result, text: truncated(result.text, maxChars) }),
  fail: (text) => failure(text),
  size: (result) => result.text.length,
};

/**
 * One tool call under the limits: a timeout, and the result cut to a size a model can take.
 * Failures come back as error results; only `signal`'s own abort is thrown.
 */
export function callWithinLimits(
  provider: ToolProvider,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  limits: ToolLimits,
  context?: ToolCallContext,
  upstreamTask?: UpstreamTaskRecord,
): Promise<[ToolCallOutcome, ToolResult]> {
  return runWithinLimits(
    name,
    signal,
    limits,
    TEXT_RESULT_LIMITER,
    (bounded) => provider.call(name, args, bounded, context, upstreamTask),
    provider.originOf(name),
  );
}

/**
 * `run` (a call of tool `name`, served by `origin` when known) under the limits, whatever its kind
 * of result, in a span of its own; see callWithinLimits.
 */
export function runWithinLimits<R extends { isError?: boolean }>(
  name: string,
  signal: AbortSignal,
  limits: ToolLimits,
  limiter: ResultLimiter<R>,
  run: (signal: AbortSignal) => Promise<R>,
  origin?: ToolOrigin,
): Promise<[ToolCallOutcome, R]> {
  const attributes = () => ({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    ...(origin && { 'switchboard.tool.source': origin.server ? `${origin.kind}:${origin.server}` : origin.kind }),
  });
  return inSpan(
    `execute_tool ${name}`,
    () => ({ attributes: attributes() }),
    async (span) => {
      const [outcome, result] = await withinLimits(name, signal, limits, limiter, run);
      span?.setAttributes({
        'switchboard.tool.outcome': outcome,
        'switchboard.tool.result_chars': limiter.size(result),
      });
      return [outcome, result];
    },
  );
}

async function withinLimits<R extends { isError?: boolean }>(
  name: string,
  signal: AbortSignal,
  limits: ToolLimits,
  limiter: ResultLimiter<R>,
  run: (signal: AbortSignal) => Promise<R>,
): Promise<[ToolCallOutcome, R]> {
  const deadline = callDeadline(signal, limits.timeoutMs);
  try {
    const result = await run(deadline.signal);
    return [result.isError ? 'tool_error' : 'ok', limiter.cut(result, limits.maxResultChars)];
  } catch (error) {
    if (signal.aborted) throw error;
    if (deadline.timedOut())
      return ['timeout', limiter.fail(`Tool "${name}" did not answer within ${limits.timeoutMs} ms.`)];
    return ['failed', limiter.fail(`Tool "${name}" failed: ${(error as Error).message}`)];
  } finally {
    deadline.dispose();
  }
}

/**
 * A signal that aborts with `signal` or after `timeoutMs`, with one controller and one timer
 * (AbortSignal.any and AbortSignal.timeout cost tens of microseconds each, on every tool call).
 */
function callDeadline(
  signal: AbortSignal,
  timeoutMs: number,
): { signal: AbortSignal; timedOut(): boolean; dispose(): void } {
  const bounded = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    bounded.abort(new DOMException(`The call did not end within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const follow = () => bounded.abort(signal.reason);
  if (signal.aborted) follow();
  else signal.addEventListener('abort', follow, { once: true });
  return {
    signal: bounded.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', follow);
    },
  };
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
