/**
 * Imports between the folders of src/ run one way: down the layers of layers.ts, with no cycle. Read
 * from the source (every import, type-only ones included), so a new import against the order fails
 * here with the file that makes it. docs/architecture.md's table must say what layers.ts says.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { cycles, relativeImports, ROOT, sourceFiles, SRC } from './import-graph';
import { LAYERS, layerOf, mayImport, mayImportFile, mayImportText } from './layers';

/** The folder of src/ a path under it belongs to: its first segment, `app` for src/*.ts. */
function folderOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length === 1 ? 'app' : parts[0];
}

/** Folder -> folders it imports, each edge with the first import that makes it (`file: 'specifier'`). */
type FolderImports = Map<string, Map<string, string>>;

function folderImports(): FolderImports {
  const imports: FolderImports = new Map();
  for (const file of sourceFiles()) {
    const from = folderOf(file);
    if (!imports.has(from)) imports.set(from, new Map());
    for (const { specifier, target } of relativeImports(file)) {
      const to = folderOf(target);
      if (to !== from && !imports.get(from)!.has(to))
        imports.get(from)!.set(to, `${relative(ROOT, file)}: '${specifier}'`);
    }
  }
  return imports;
}

function against(imports: FolderImports): string[] {
  return [...imports].flatMap(([from, targets]) =>
    [...targets].filter(([to]) => !mayImport(from, to)).map(([to, where]) => `${from} -> ${to} (${where})`),
  );
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
    expect(cycles(new Map([...imports].map(([folder, targets]) => [folder, targets.keys()])))).toEqual([]);
  });

  it('are told apart from a cycle, an import upward and one of a private folder', () => {
    const graph: FolderImports = new Map([
      [
        'agents',
        new Map([
          ['a2a-server', 'src/agents/x.ts'],
          ['config', 'src/agents/y.ts'],
        ]),
      ],
      [
        'a2a-server',
        new Map([
          ['agents', 'src/a2a-server/z.ts'],
          ['task-store', 'src/a2a-server/w.ts'],
        ]),
      ],
      ['tasks', new Map([['task-store', 'src/tasks/v.ts']])],
    ]);
    expect(cycles(new Map([...graph].map(([folder, targets]) => [folder, targets.keys()])))).toEqual([
      ['a2a-server', 'agents'],
    ]);
    expect(against(graph)).toEqual([
      'agents -> a2a-server (src/agents/x.ts)',
      'a2a-server -> task-store (src/a2a-server/w.ts)',
    ]);
  });
});

/** `file: 'specifier'` for each import of a file of src/ into a surfaced folder past its index. */
function behindSurfaces(): string[] {
  const underSrc = (path: string) => relative(SRC, path).split(sep).join('/');
  return sourceFiles().flatMap((file) =>
    relativeImports(file)
      .filter(({ target }) => !mayImportFile(underSrc(file), underSrc(target)))
      .map(({ specifier }) => `${relative(ROOT, file)}: '${specifier}'`),
  );
}

describe('the folders of src/ with a surface (an index.ts)', () => {
  it('are imported from outside through their index alone', () => {
    expect(behindSurfaces()).toEqual([]);
  });

  it('tell an import past the index from one through it, inside the folder and from a spec', () => {
    expect(mayImportFile('a2a-server/x.ts', 'tasks/lifecycle/turn-replay.ts')).toBe(false);
    expect(mayImportFile('a2a-server/x.ts', 'tasks/task-view.ts')).toBe(false);
    expect(mayImportFile('a2a-server/x.ts', 'tasks/index.ts')).toBe(true);
    expect(mayImportFile('tasks/lifecycle/x.ts', 'tasks/events/y.ts')).toBe(true);
    expect(mayImportFile('a2a-server/x.spec.ts', 'tasks/events/memory-task-event-stream.ts')).toBe(true);
    expect(mayImportFile('a2a-server/x.ts', 'task-store/task-store.interface.ts')).toBe(true);
  });
});

describe("docs/architecture.md's table of folders", () => {
  const rows = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')
    .split('\n')
    .map((line) => /^\| `([^`]+)` \| (\w+) \| .+ \| (.+) \|$/.exec(line))
    .filter((match) => match !== null);

  it('has a row for each folder of each layer, in the order of the layers', () => {
    expect(rows.map(([, folder, layer]) => [folder, layer])).toEqual(
      LAYERS.flatMap(({ name, folders }) => Object.keys(folders).map((folder) => [folder, name])),
    );
  });

  it('says what each folder may import as the layers do', () => {
    expect(rows.map(([, folder, , may]) => [folder, may])).toEqual(
      rows.map(([, folder]) => [folder, mayImportText(folder)]),
    );
  });
});
