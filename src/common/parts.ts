import type { Message, Part, Task } from '@a2a-js/sdk';

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: {} };
}

/** A JSON value as a part. */
export function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: {} };
}

/** The JSON value of a data part; undefined for any other part, or none. */
export function partData(part: Part | undefined): unknown {
  return part?.content?.$case === 'data' ? part.content.value : undefined;
}

/** The text of A2A parts; non-text parts are left out. */
export function partsText(parts: Part[]): string {
  return parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

export function messageText(message: Message | undefined): string {
  return message ? partsText(message.parts) : '';
}

/** A task's answer: its artifacts' text, else its status message. */
export function taskText(task: Task): string {
  const artifacts = partsText(task.artifacts.flatMap((artifact) => artifact.parts));
  return artifacts || messageText(task.status?.message);
}
