/**
 * src/mcp-server is laid out by role (layers.ts's MCP_SERVER_ROLES): each folder imports only the
 * rows above its own, so a new import the wrong way fails here with the file that makes it, and
 * docs/architecture.md's table of its folders must say what the list says.
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { relativeImports, ROOT, sourceFiles, SRC } from './import-graph';
import { MCP_SERVER_ROLES, MCP_SERVER_WIRING, mayImportRole, mayImportRoleText, roleRowOf } from './layers';

const MCP_SERVER = join(SRC, 'mcp-server');

/** The role folder of a file of src/mcp-server: its first segment below it, `''` for the root. */
function roleOf(file: string): string {
  const parts = relative(MCP_SERVER, file).split(sep);
  return parts.length === 1 ? '' : parts[0];
}

const files = sourceFiles(MCP_SERVER);

describe('the role folders of src/mcp-server', () => {
  it('each stand in one row', () => {
    expect([...new Set(files.map(roleOf))].filter((role) => roleRowOf(role) === undefined)).toEqual([]);
  });

  it('import no folder of their own row or one below, the module file apart', () => {
    const against = files
      .filter((file) => relative(MCP_SERVER, file) !== MCP_SERVER_WIRING)
      .flatMap((file) =>
        relativeImports(file)
          .filter(({ target }) => target.startsWith(MCP_SERVER + sep) && !mayImportRole(roleOf(file), roleOf(target)))
          .map(({ specifier }) => `${relative(ROOT, file)}: '${specifier}'`),
      );
    expect(against).toEqual([]);
  });

  it('are told apart from an import down the rows or across one', () => {
    expect([mayImportRole('sessions', 'bridge'), mayImportRole('bridge', 'bridge'), mayImportRole('http', '')]).toEqual(
      [true, true, true],
    );
    expect([
      mayImportRole('bridge', 'sessions'),
      mayImportRole('', 'stores'),
      mayImportRole('http', 'stdio'),
      mayImportRole('wire', ''),
    ]).toEqual([false, false, false, false]);
  });
});

describe("docs/architecture.md's table of mcp-server's folders", () => {
  const rows = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8')
    .split('\n')
    .map((line) => /^\| (\(root\)|`[a-z-]+\/`) \| .+ \| (.+) \|$/.exec(line))
    .filter((match) => match !== null)
    .map(([, folder, may]) => [folder === '(root)' ? '' : folder.slice(1, -2), may]);

  it('has a row for each folder, in the order of the rows, saying what it may import', () => {
    expect(rows).toEqual(MCP_SERVER_ROLES.flat().map((role) => [role, mayImportRoleText(role)]));
  });
});
