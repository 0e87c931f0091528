import type { CallToolResult } from '@modelcontextprotocol/client';
import { type ResultLimiter, truncated } from './tool-limits';

/**
 * `tools.max_result_chars` for an MCP client's whole result: the text blocks share the budget, in
 * order. `structuredContent` stays whole: cut, it would no longer match the tool's `outputSchema`,
 * which the client checks.
 */
export const CALL_TOOL_RESULT_LIMITER: ResultLimiter<CallToolResult> = {
  cut: (result, maxChars) => {
    let left = maxChars;
    const content = result.content.map((block) => {
      if (block.type !== 'text') return block;
      const text = truncated(block.text, Math.max(left, 0));
      left -= block.text.length;
      return text === block.text ? block : { ...block, text };
    });
    return { ...result, content };
  },
  fail: (text) => ({ content: [{ type: 'text', text }], isError: true }),
  size: (result) => result.content.reduce((chars, block) => chars + (block.type === 'text' ? block.text.length : 0), 0),
};
