import type { Message } from '@a2a-js/sdk';
import type { SwitchboardConfig } from '../../config/config.schema';

/** How much one message may carry; an agent turn's cost grows with it, in every store and stream it passes. */
export interface MessageLimits {
  maxParts: number;
  maxTextChars: number;
}

export function messageLimitsOf(a2a: SwitchboardConfig['a2a']): MessageLimits {
  return { maxParts: a2a.max_message_parts, maxTextChars: a2a.max_message_text_chars };
}

/**
 * What makes `message` too large, naming the limit and its config key; undefined when it is within
 * them. Reads no more than `maxParts` parts, so a message far past the limit costs no more to refuse.
 */
export function messageLimitProblem(message: Message | undefined, limits: MessageLimits): string | undefined {
  const parts = message?.parts ?? [];
  if (parts.length > limits.maxParts) {
    return `params.message.parts: ${parts.length} parts, more than the ${limits.maxParts} a message may have (a2a.max_message_parts)`;
  }
  let textChars = 0;
  for (const part of parts) {
    if (part.content?.$case === 'text') textChars += part.content.value.length;
  }
  if (textChars > limits.maxTextChars) {
    return `params.message.parts: ${textChars} characters of text, more than the ${limits.maxTextChars} a message may have (a2a.max_message_text_chars)`;
  }
  return undefined;
}
