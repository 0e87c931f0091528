/**
 * The import graph of src/, read from the source: every relative import, type-only ones included (they
 * tie files as much as value imports do), with the file it resolves to.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { preProcessFile } from 'typescript';

export const ROOT = join(__dirname, '..', '..');
export const SRC = join(ROOT, 'src');

/** Every .ts file under `dir`, Prisma's generated client left out (it imports nothing of ours). */
export function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(SRC, 'generated') ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The relative imports of `file`: each specifier as written, with the path it resolves to (`x.ts` or `x/index.ts`). */
export function relativeImports(file: string): { specifier: string; target: string }[] {
  return preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.filter(({ fileName }) => fileName.startsWith('.'))
    .map(({ fileName }) => {
      const base = normalize(join(dirname(file), fileName));
      const target = [`${base}.ts`, join(base, 'index.ts')].find((path) => existsSync(path)) ?? base;
      return { specifier: fileName, target };
    });
}

/** The groups of nodes that import each other in a loop (strongly connected components, Tarjan's), each sorted. */
export function cycles(edges: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group = stack.splice(stack.indexOf(node));
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return groups;
}
