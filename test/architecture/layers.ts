/**
 * The layers of src/, bottom first. A folder may import any folder of a layer below its own, and of
 * its own layer only the folders it names; never one above. `app` is src/*.ts (the root module and
 * the app factory). docs/architecture.md's table says the same; layers.spec.ts checks the code and
 * the table against this list.
 */
export interface Layer {
  name: string;
  /** Each folder of the layer, with the folders of the same layer it may import. */
  folders: Record<string, string[]>;
}

export const LAYERS: readonly Layer[] = [
  { name: 'foundation', folders: { common: [], config: ['common'], tracing: ['common', 'config'] } },
  {
    name: 'infrastructure',
    folders: {
      generated: [],
      redis: [],
      database: ['generated'],
      security: ['redis'],
      logging: ['security'],
      metrics: ['security'],
      presence: ['redis'],
    },
  },
  { name: 'stores', folders: { queue: [], 'task-store': [], audit: ['queue'], catalog: ['audit'] } },
  { name: 'tasks', folders: { tasks: [] } },
  { name: 'clients', folders: { 'a2a-client': [], 'mcp-client': [] } },
  { name: 'runtime', folders: { agents: [] } },
  {
    name: 'faces',
    folders: { 'a2a-server': [], 'mcp-server': ['a2a-server'], health: [], operator: ['a2a-server'], console: [] },
  },
  { name: 'app', folders: { app: [], cli: ['app'] } },
];

/**
 * Folders only the named folders may import, whatever their layers: task-store's writes are
 * reachable through src/tasks alone (TaskLifecycle), and the root module wires its providers.
 */
export const PRIVATE: Readonly<Record<string, readonly string[]>> = { 'task-store': ['tasks', 'app'] };

/**
 * Folders the rest of src/ reaches through their `index.ts` alone: the index says what the folder
 * offers, and the files behind it can change without a caller knowing. Files of the folder import
 * each other freely; specs beside the code (`*.spec.ts`), like the tests under test/, may import
 * what they test.
 */
export const SURFACES: readonly string[] = ['tasks'];

/**
 * Whether file `from` may import file `to` as far as SURFACES go (paths under src/ with `/`, as
 * `a2a-server/x.ts`, `tasks/lifecycle/y.ts`): outside a surfaced folder, only its `index.ts`.
 */
export function mayImportFile(from: string, to: string): boolean {
  const [folder] = to.split('/');
  if (!SURFACES.includes(folder) || from.split('/')[0] === folder || from.endsWith('.spec.ts')) return true;
  return to === `${folder}/index.ts`;
}

/** The layer of `folder`, by its index in LAYERS; undefined for a folder no layer holds. */
export function layerOf(folder: string): number | undefined {
  const index = LAYERS.findIndex((layer) => folder in layer.folders);
  return index < 0 ? undefined : index;
}

/** Whether code in folder `from` may import from folder `to`. */
export function mayImport(from: string, to: string): boolean {
  const [source, target] = [layerOf(from), layerOf(to)];
  if (source === undefined || target === undefined) return false;
  if (to in PRIVATE && !PRIVATE[to].includes(from)) return false;
  return target < source || (target === source && LAYERS[source].folders[from].includes(to));
}

/** "foundation, infrastructure, `redis`": the layers below `folder`'s and the folders of its own it may import, as the docs' table writes it. */
export function mayImportText(folder: string): string {
  const layer = layerOf(folder)!;
  const names = [
    ...LAYERS.slice(0, layer).map(({ name }) => name),
    ...LAYERS[layer].folders[folder].map((peer) => `\`${peer}\``),
  ];
  return names.length > 0 ? names.join(', ') : '—';
}

/**
 * The role folders of src/mcp-server, top first (`''` is its root: the caller type, the scoped
 * catalog, the JSON-RPC shapes). A file imports its own folder and the rows above it; folders of one
 * row import neither each other nor any row below. The module file alone, which wires every role,
 * imports them all. docs/architecture.md's table of mcp-server says the same.
 */
export const MCP_SERVER_ROLES: readonly (readonly string[])[] = [
  [''],
  ['stores'],
  ['bridge'],
  ['sessions'],
  ['tools'],
  ['mcp-tasks'],
  ['server'],
  ['http', 'stdio'],
];
export const MCP_SERVER_WIRING = 'mcp-server.module.ts';

/** The row of role folder `role` of src/mcp-server; undefined for a folder no row holds. */
export function roleRowOf(role: string): number | undefined {
  const row = MCP_SERVER_ROLES.findIndex((roles) => roles.includes(role));
  return row < 0 ? undefined : row;
}

/** Whether code in role folder `from` of src/mcp-server may import from role folder `to`. */
export function mayImportRole(from: string, to: string): boolean {
  const [source, target] = [roleRowOf(from), roleRowOf(to)];
  if (source === undefined || target === undefined) return false;
  return from === to || target < source;
}

/** "(root), `stores/`": the role folders above `role`'s row, as the docs' table writes them. */
export function mayImportRoleText(role: string): string {
  const names = MCP_SERVER_ROLES.slice(0, roleRowOf(role)!)
    .flat()
    .map((above) => (above === '' ? '(root)' : `\`${above}/\``));
  return names.length > 0 ? names.join(', ') : '—';
}
