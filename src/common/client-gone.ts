import type { ServerResponse } from 'node:http';

/**
 * Calls `gone` if the client of `response` leaves before its answer is complete: when the
 * connection closes, or at once when it closed already, while the request was on its way to the
 * handler (behind a guard's store round trip, say), which no `close` listener would hear.
 */
export function whenClientLeaves(response: ServerResponse, gone: () => void): void {
  const left = () => {
    if (!response.writableFinished) gone();
  };
  if (response.destroyed) left();
  else response.once('close', left);
}
