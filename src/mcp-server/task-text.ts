import { Message, Part, Task } from '@a2a-js/sdk';

/** The text of A2A parts; non-text parts are left out. */
export function partsText(parts: Part[]): string {
  return parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}

/** A task's answer: its artifacts' text, else its status message. */
export function taskText(task: Task): string {
  const artifacts = partsText(task.artifacts.flatMap((artifact) => artifact.parts));
  return artifacts || messageText(task.status?.message);
}

export function messageText(message: Message | undefined): string {
  return message ? partsText(message.parts) : '';
}
