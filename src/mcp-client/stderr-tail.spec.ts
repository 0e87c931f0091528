import { StderrTail } from './stderr-tail';

describe('StderrTail', () => {
  it('keeps the last twenty lines, each cut at 500 characters', () => {
    const tail = new StderrTail();
    for (let line = 1; line <= 25; line++) tail.push(`line ${line}`);
    tail.push('x'.repeat(600));
    expect(tail.lines).toHaveLength(20);
    expect(tail.lines[0]).toBe('line 7');
    expect(tail.lines.at(-1)).toBe(`${'x'.repeat(500)}…`);
  });

  it('shows URLs without their user info and query values', () => {
    const tail = new StderrTail();
    tail.push('connecting to postgres://app:s3cret@db:5432/app?sslmode=require failed');
    expect(tail.lines).toEqual(['connecting to postgres://redacted@db:5432/app?sslmode=%5Bredacted%5D failed']);
  });
});
