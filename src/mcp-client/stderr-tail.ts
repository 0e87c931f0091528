import { withUrlsRedacted } from '../security/redacted-url';

/** How many of a stdio server's last stderr lines are kept, and how much of each. */
const KEPT_LINES = 20;
const KEPT_CHARS = 500;

/**
 * The last lines a stdio server wrote to stderr, across its attempts: what says why it would not
 * start, where the SDK only says the connection closed. URLs in them are shown redacted.
 */
export class StderrTail {
  private readonly kept: string[] = [];

  push(line: string): void {
    this.kept.push(withUrlsRedacted(line.length > KEPT_CHARS ? `${line.slice(0, KEPT_CHARS)}…` : line));
    if (this.kept.length > KEPT_LINES) this.kept.shift();
  }

  get lines(): string[] {
    return [...this.kept];
  }
}
