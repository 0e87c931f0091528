/**
 * Imports between the folders of src/ run one way: down the layers of layers.ts, with no cycle. Read
 * from the source (every import, type-only ones included), so a new import against the order fails
 * here with the file that makes it. docs/architecture.md's table must say what layers.ts says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { preProcessFile } from 'typescript';
import { LAYERS, layerOf, mayImport, mayImportText } from './layers';

const ROOT = join(__dirname, '..', '..');
const SRC = join(ROOT, 'src');

/** The folder of src/ a path under it belongs to: its first segment, `app` for src/*.ts. */
function folderOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length === 1 ? 'app' : parts[0];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // Prisma's generated client imports nothing of ours.
    if (entry.isDirectory()) return path === join(SRC, 'generated') ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Folder -> folders it imports, each edge with the first import that makes it (`file: 'specifier'`). */
type FolderImports = Map<string, Map<string, string>>;

function folderImports(): FolderImports {
  const imports: FolderImports = new Map();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (!imports.has(from)) imports.set(from, new Map());
    for (const { fileName } of preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(normalize(join(dirname(file), fileName)));
      if (to !== from && !imports.get(from)!.has(to)) imports.get(from)!.set(to, `${relative(ROOT, file)}: '${fileName}'`);
    }
  }
  return imports;
}

/** The groups of folders that import each other in a loop (strongly connected components, Tarjan's), each sorted. */
function cycles(imports: FolderImports): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder)!);
    stack.push(folder);
    for (const next of imports.get(folder)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(folder, Math.min(low.get(folder)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(folder, Math.min(low.get(folder)!, index.get(next)!));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group = stack.splice(stack.indexOf(folder));
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of imports.keys()) if (!index.has(folder)) visit(folder);
  return groups;
}

function against(imports: FolderImports): string[] {
  return [...imports].flatMap(([from, targets]) => [...targets].filter(([to]) => !mayImport(from, to)).map(([to, where]) => `${from} -> ${to} (${where})`));
}

describe('the folders of src/', () => {
  const imports = folderImports();

  it('each stand in one layer', () => {
    const folders = new Set([...imports.keys(), ...[...imports.values()].flatMap((targets) => [...targets.keys()])]);
    expect([...folders].filter((folder) => layerOf(folder) === undefined)).toEqual([]);
  });

  it('import no folder of a layer above their own, nor one of their own layer they do not name', () => {
    expect(against(imports)).toEqual([]);
  });

  it('import each other in no cycle', () => {
    expect(cycles(imports)).toEqual([]);
  });

  it('are told apart from a cycle, an import upward and one of a private folder', () => {
    const graph: FolderImports = new Map([
      ['agents', new Map([['a2a-server', 'src/agents/x.ts'], ['config', 'src/agents/y.ts']])],
      ['a2a-server', new Map([['agents', 'src/a2a-server/z.ts'], ['task-store', 'src/a2a-server/w.ts']])],
      ['tasks', new Map([['task-store', 'src/tasks/v.ts']])],
    ]);
    expect(cycles(graph)).toEqual([['a2a-server', 'agents']]);
    expect(against(graph)).toEqual(['agents -> a2a-server (src/agents/x.ts)', 'a2a-server -> task-store (src/a2a-server/w.ts)']);
  });
});

describe("docs/architecture.md's table of folders", () => {
  const rows = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')
    .split('\n')
    .map((line) => /^\| `([^`]+)` \| (\w+) \| .+ \| (.+) \|$/.exec(line))
    .filter((match) => match !== null);

  it('has a row for each folder of each layer, in the order of the layers', () => {
    expect(rows.map(([, folder, layer]) => [folder, layer])).toEqual(LAYERS.flatMap(({ name, folders }) => Object.keys(folders).map((folder) => [folder, name])));
  });

  it('says what each folder may import as the layers do', () => {
    expect(rows.map(([, folder, , may]) => [folder, may])).toEqual(rows.map(([, folder]) => [folder, mayImportText(folder)]));
  });
});
