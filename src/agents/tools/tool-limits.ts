import type { ToolCallContext, ToolProvider, ToolResult } from './tool-provider.interface';

export interface ToolLimits {
  timeoutMs: number;
  maxResultChars: number;
}

export type ToolCallOutcome = 'ok' | 'tool_error' | 'refused' | 'timeout' | 'failed';

/**
 * One tool call under the limits: a timeout, and the result cut to a size a model can take.
 * Failures come back as error results; only `signal`'s own abort is thrown.
 */
export async function callWithinLimits(
  provider: ToolProvider,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  limits: ToolLimits,
  context?: ToolCallContext,
): Promise<[ToolCallOutcome, ToolResult]> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  try {
    const result = await provider.call(name, args, AbortSignal.any([signal, timeout]), context);
    return [result.isError ? 'tool_error' : 'ok', { ...result, text: truncated(result.text, limits.maxResultChars) }];
  } catch (error) {
    if (signal.aborted) throw error;
    if (timeout.aborted) return ['timeout', failure(`Tool "${name}" did not answer within ${limits.timeoutMs} ms.`)];
    return ['failed', failure(`Tool "${name}" failed: ${(error as Error).message}`)];
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
