/**
 * The README and docs/ point at each other, at examples/ and at the chart: every relative link must
 * reach a file that exists, and a link to a heading (`file.md#anchor`) a heading that exists. Every
 * JSON block (the IDEs' mcpServers settings) must parse, as a reader pastes it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { codeBlocks, documentationFiles, headingAnchors, proseLines, ROOT } from './markdown-blocks';

const files = documentationFiles();

/** Every `[text](target)` outside code, with the line it is on; inline code spans are skipped. */
function links(markdown: string): { line: number; target: string }[] {
  return proseLines(markdown).flatMap((line, index) =>
    [...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((match) => ({
      line: index + 1,
      target: match[1],
    })),
  );
}

function problem(from: string, target: string): string | undefined {
  if (/^(https?|mailto):/.test(target)) return undefined;
  const [path, anchor] = target.split('#');
  const file = path === '' ? join(ROOT, from) : normalize(join(ROOT, dirname(from), path));
  if (!file.startsWith(ROOT)) return 'leaves the checkout';
  if (!existsSync(file)) return 'no such file';
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md') || statSync(file).isDirectory()) return 'an anchor into something that is not Markdown';
  return headingAnchors(readFileSync(file, 'utf8')).has(anchor) ? undefined : `no heading makes #${anchor}`;
}

describe('the README and docs/', () => {
  it('are several files, each linked from the README', () => {
    const readme = files.find((file) => file.path === 'README.md')!.text;
    const docs = files.filter((file) => file.path.startsWith('docs/')).map((file) => file.path);
    expect(docs.length).toBeGreaterThanOrEqual(5);
    expect(docs.filter((path) => !readme.includes(`](${path}`))).toEqual([]);
  });

  it('have only relative links that resolve', () => {
    const broken = files.flatMap(({ path, text }) =>
      links(text).flatMap(({ line, target }) => {
        const why = problem(path, target);
        return why ? [`${path}:${line}: ${target}: ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('have JSON blocks that parse', () => {
    const blocks = files.flatMap(({ path, text }) => codeBlocks(text, 'json', path));
    expect(blocks.length).toBeGreaterThan(0);
    const invalid = blocks.filter(({ code }) => {
      try {
        JSON.parse(code);
        return false;
      } catch {
        return true;
      }
    });
    expect(invalid.map(({ name }) => name)).toEqual([]);
  });
});
