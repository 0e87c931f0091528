import { html, type SafeHtml } from './html';
import { STATUS_LINE, table } from './page-bodies';

/** A field of an entry's form: where its value sits in the entry (`transport.url`) and how it is edited. */
interface EntryField {
  path: string;
  label: string;
  /** `list`: comma-separated, a JSON array; `number`, `boolean` (a checkbox), `select`, else text. */
  type?: 'text' | 'url' | 'number' | 'boolean' | 'list' | 'select' | 'datetime';
  options?: string[];
  hint?: string;
  required?: boolean;
}

/** One kind's console page: `/console/catalog/{path}`, its admin API path too. */
export interface CatalogPage {
  path: string;
  /** The kind as the catalog names it (`GET /api/admin/catalog`'s `entries`). */
  kind: string;
  title: string;
  /** "an MCP server" */
  one: string;
  fileSection: string;
  fields: EntryField[];
  /** The admin API's trial of an unsaved entry, and its button. */
  trial?: { path: string; label: string };
}

const NAME: EntryField = { path: 'name', label: 'Name', required: true, hint: 'Letters, digits, - and _.' };
const GRANTS: EntryField[] = [
  { path: 'admin', label: 'Operator rights (admin)', type: 'boolean' },
  { path: 'tools', label: 'Tools', type: 'list', hint: 'Comma-separated names or * patterns; empty: all.' },
  { path: 'agents', label: 'Agents', type: 'list', hint: 'Comma-separated names or * patterns; empty: all.' },
];

export const CATALOG_PAGES: readonly CatalogPage[] = [
  {
    path: 'mcp-servers',
    kind: 'mcp_servers',
    title: 'MCP servers',
    one: 'an MCP server',
    fileSection: '[[mcp_servers]]',
    fields: [
      NAME,
      { path: 'transport.type', label: 'Transport', type: 'select', options: ['http', 'sse', 'stdio'], required: true },
      {
        path: 'transport.url',
        label: 'URL',
        type: 'url',
        hint: 'For http and sse; a stdio server has a command and args (in the JSON below).',
      },
      { path: 'timeout_secs', label: 'Timeout (seconds)', type: 'number' },
    ],
    trial: { path: 'mcp-servers/test', label: 'Test connection' },
  },
  {
    path: 'external-agents',
    kind: 'external_agents',
    title: 'External agents',
    one: 'an external agent',
    fileSection: '[[a2a.external_agents]]',
    fields: [
      NAME,
      { path: 'url', label: 'URL', type: 'url', required: true, hint: 'Where its card is published.' },
      {
        path: 'card_path',
        label: 'Card path',
        hint: 'Empty: /.well-known/agent-card.json, then /.well-known/agent.json.',
      },
      { path: 'timeout_secs', label: 'Timeout (seconds)', type: 'number' },
      { path: 'trusted', label: 'Trusted (any LLM agent may delegate to it)', type: 'boolean' },
    ],
    trial: { path: 'external-agents/fetch-card', label: 'Fetch card' },
  },
  {
    path: 'agents',
    kind: 'agents',
    title: 'Agents',
    one: 'an agent',
    fileSection: '[[agents]]',
    fields: [
      NAME,
      { path: 'description', label: 'Description' },
      {
        path: 'executor.type',
        label: 'Executor',
        type: 'select',
        options: ['llm', 'a2a', 'script', 'echo'],
        required: true,
      },
      { path: 'tools', label: 'Tools', type: 'list', hint: 'Comma-separated names or * patterns (mcp_github_*).' },
      {
        path: 'delegates',
        label: 'Delegates',
        type: 'list',
        hint: 'External agents it may delegate to, comma-separated.',
      },
    ],
  },
  {
    path: 'keys',
    kind: 'keys',
    title: 'API keys',
    one: 'an API key',
    fileSection: '[[auth.api_keys]]',
    fields: [NAME, { path: 'expires_at', label: 'Expires', type: 'datetime', hint: 'Empty: never.' }, ...GRANTS],
  },
  {
    path: 'rules',
    kind: 'rules',
    title: 'Access rules',
    one: 'an access rule',
    fileSection: '[[auth.rules]]',
    fields: [
      NAME,
      { path: 'keys', label: 'Keys it matches', type: 'list', hint: 'Comma-separated key names or * patterns.' },
      { path: 'subjects', label: 'Token subjects it matches', type: 'list', hint: 'Comma-separated; not with keys.' },
      ...GRANTS,
    ],
  },
];

export function catalogPage(path: string): CatalogPage | undefined {
  return CATALOG_PAGES.find((page) => page.path === path);
}

/**
 * A kind's page: its entries (the file's read-only), and a form to add one or edit one, whose common
 * fields and JSON of the whole entry console.js keeps in step. Keys are created, never edited, and
 * have no JSON: their body is these fields.
 */
export function catalogBody(page: CatalogPage, inMemory: boolean): SafeHtml {
  const keys = page.kind === 'keys';
  return html`<h1>Catalog: ${page.title}</h1>
${catalogNavigation(page)}
<p class="hint">Entries of the config file (${page.fileSection}) are read-only here: change them in the file and reload it (SIGHUP). Entries added here apply on every process within seconds.</p>
${inMemory ? html`<p class="hint warning">This Switchboard runs without a database: entries added here are kept in memory and lost when it stops.</p>` : undefined}
${STATUS_LINE}
<p class="status-line" id="outcome" role="status" aria-live="polite"></p>
${table('catalog-entries', `${page.title} in the catalog`, ['Name', 'Source', 'Version', 'Updated', 'Entry', 'Actions'], `No ${page.title.toLowerCase()} yet.`)}
<p><button type="button" id="add-entry">${keys ? 'Create a key' : `Add ${page.one}`}</button></p>
${keys ? createdKeyPanel() : undefined}
<section id="editor" class="editor" aria-labelledby="editor-heading" hidden>
<h2 id="editor-heading" tabindex="-1"></h2>
<form id="entry-form" novalidate>
${page.fields.map(fieldMarkup)}
${keys ? undefined : jsonField(page)}
<div id="form-problems" class="problems" role="alert" tabindex="-1" hidden></div>
<div class="form-actions"><button type="submit" id="save-entry">${keys ? 'Create key' : 'Save'}</button>${page.trial ? html`<button type="button" class="quiet" id="try-entry" data-trial="${page.trial.path}">${page.trial.label}</button>` : undefined}<button type="button" class="quiet" id="close-editor">Cancel</button></div>
</form>
${page.trial ? html`<div id="trial-result" class="trial-result"><p class="status-line" id="trial-status" role="status" aria-live="polite"></p><div id="trial-detail"></div></div>` : undefined}
</section>
<dialog id="confirm-delete" aria-labelledby="confirm-delete-heading" aria-describedby="confirm-delete-text">
<h2 id="confirm-delete-heading">Delete?</h2>
<p id="confirm-delete-text"></p>
<div class="dialog-actions"><button type="button" class="quiet" value="keep" autofocus>Keep it</button><button type="button" class="danger" value="delete">Delete</button></div>
</dialog>`;
}

function catalogNavigation(current: CatalogPage): SafeHtml {
  const links = CATALOG_PAGES.map(
    (page) =>
      html`<li><a href="/console/catalog/${page.path}"${page === current ? html` aria-current="page"` : undefined}>${page.title}</a></li>`,
  );
  return html`<nav class="subnav" aria-label="Catalog"><ul>${links}</ul></nav>`;
}

function fieldMarkup(field: EntryField): SafeHtml {
  const id = `field-${field.path.replace(/\./g, '-')}`;
  const hint = field.hint ? html`<p class="hint" id="${id}-hint">${field.hint}</p>` : undefined;
  const common = html` id="${id}" name="${field.path}" data-path="${field.path}" data-type="${field.type ?? 'text'}"${field.required ? html` required` : undefined}${field.hint ? html` aria-describedby="${id}-hint"` : undefined}`;
  if (field.type === 'boolean')
    return html`<div class="field field-check"><input type="checkbox"${common}><label for="${id}">${field.label}</label>${hint}</div>`;
  const control =
    field.type === 'select'
      ? html`<select${common}>${(field.options ?? []).map((option) => html`<option value="${option}">${option}</option>`)}</select>`
      : html`<input type="${inputType(field)}"${common}${field.type === 'number' ? html` inputmode="numeric"` : undefined}>`;
  return html`<div class="field"><label for="${id}">${field.label}</label>${control}${hint}</div>`;
}

function inputType(field: EntryField): string {
  if (field.type === 'url') return 'url';
  if (field.type === 'number') return 'number';
  if (field.type === 'datetime') return 'datetime-local';
  return 'text';
}

function jsonField(page: CatalogPage): SafeHtml {
  return html`<div class="field field-wide"><label for="entry-json">The whole entry (JSON with the keys of a ${page.fileSection} entry)</label>
<textarea id="entry-json" rows="12" spellcheck="false" autocapitalize="off" aria-describedby="entry-json-hint"></textarea>
<p class="hint" id="entry-json-hint">Kept in step with the fields above. Secrets show as ******** and keep their stored value when sent back so.</p></div>`;
}

function createdKeyPanel(): SafeHtml {
  return html`<section id="created-key" class="created-key" aria-labelledby="created-key-heading" hidden>
<h2 id="created-key-heading" tabindex="-1">Key created</h2>
<p class="warning"><strong>Copy it now: you will not see it again.</strong> Switchboard keeps only its hash.</p>
<div class="field"><label for="created-key-value">Key <span id="created-key-name"></span></label>
<input id="created-key-value" type="text" readonly spellcheck="false" autocomplete="off"></div>
<div class="form-actions"><button type="button" id="copy-key">Copy key</button><button type="button" class="quiet" id="forget-key">Done, I have copied it</button></div>
</section>`;
}

/** What the audit list is filtered by: the query of `/console/audit`, the admin API's too. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  since?: string;
}

export function auditBody(filters: AuditFilters): SafeHtml {
  const input = (name: keyof AuditFilters, label: string, hint?: string) =>
    html`<div class="field"><label for="filter-${name}">${label}</label><input id="filter-${name}" name="${name}" value="${filters[name] ?? ''}"${hint ? html` placeholder="${hint}"` : undefined}></div>`;
  return html`<h1>Audit</h1>
<form class="filters" method="get" action="/console/audit" aria-label="Filter the audit trail">
${input('actor', 'Actor', 'key or principal')}
${input('action', 'Action', 'catalog.update')}
${input('target', 'Target', 'mcp_server:github')}
<div class="field"><label for="filter-since">Since</label><input id="filter-since" name="since" type="datetime-local" value="${filters.since ?? ''}"></div>
<button type="submit">Filter</button>
</form>
${STATUS_LINE}
${table('audit', 'Changes, logins and cancels, newest first', ['When', 'Actor', 'Action', 'Target', 'Detail'], 'No audit entries match.')}
<button type="button" id="more-audit" hidden>Load more</button>`;
}
