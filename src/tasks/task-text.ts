import { type Message, type Task } from '@a2a-js/sdk';
import { partsText } from './lifecycle/turn-publisher';

/** A task's answer: its artifacts' text, else its status message. */
export function taskText(task: Task): string {
  const artifacts = partsText(task.artifacts.flatMap((artifact) => artifact.parts));
  return artifacts || messageText(task.status?.message);
}

export function messageText(message: Message | undefined): string {
  return message ? partsText(message.parts) : '';
}
