/**
 * No two files of src/ import each other, directly or through others: the folder layers cannot see a
 * loop inside one folder, and such a loop makes the order of module loading (and of class decorators)
 * depend on which file is required first.
 */
import { relative } from 'node:path';
import { cycles, relativeImports, ROOT, sourceFiles } from './import-graph';

describe('the files of src/', () => {
  it('import each other in no cycle', () => {
    const imports = new Map(
      sourceFiles().map((file) => [
        relative(ROOT, file),
        relativeImports(file).map(({ target }) => relative(ROOT, target)),
      ]),
    );
    expect(cycles(imports)).toEqual([]);
  });
});
