import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The checkout's root. */
export const ROOT = resolve(__dirname, '../..');

/** The documentation the tests read: README.md and every docs/*.md, each by its path from the root. */
export function documentationFiles(): { path: string; text: string }[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

/** The fenced code blocks of one language in a Markdown text (```toml ... ```), each named by the line it starts on. */
export function codeBlocks(markdown: string, language: string, source: string): { name: string; code: string }[] {
  const lines = markdown.split('\n');
  const blocks: { name: string; code: string }[] = [];
  lines.forEach((line, index) => {
    if (line.trim() !== `\`\`\`${language}`) return;
    const end = lines.findIndex((candidate, at) => at > index && candidate.trim() === '```');
    blocks.push({ name: `${source}:${index + 1}`, code: lines.slice(index + 1, end).join('\n') });
  });
  return blocks;
}

/** The text outside fenced code blocks, line for line (fenced lines are blanked, so line numbers hold). */
export function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (line.trim().startsWith('```')) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's anchor for a heading: lowercased, punctuation dropped (hyphens and underscores kept), spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown text's headings make, a repeated one numbered as GitHub does (`name`, `name-1`, ...). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
