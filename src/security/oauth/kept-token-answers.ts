import { createHash } from 'node:crypto';

/** Answers kept at most: beyond it the oldest go first. */
const MAX_KEPT = 10_000;

/** What was found out about tokens (a verified JWT's verdict, an introspection's answer), kept by the token's digest until a given time. */
export class KeptTokenAnswers<T> {
  private readonly kept = new Map<string, { answer: T; until: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  static digest(token: string): string {
    return createHash('sha256').update(token).digest('base64url');
  }

  /** The answer kept for the token of `digest`, while it holds. */
  get(digest: string): { answer: T } | undefined {
    const kept = this.kept.get(digest);
    if (!kept) return undefined;
    if (kept.until > this.now()) return kept;
    this.kept.delete(digest);
    return undefined;
  }

  clear(): void {
    this.kept.clear();
  }

  keep(digest: string, answer: T, until: number): void {
    if (until <= this.now()) return;
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(digest, { answer, until });
  }
}
