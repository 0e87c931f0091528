import { TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { stateLabel } from '../common/task-states';
import { html, type SafeHtml } from './html';

/**
 * A table console.js fills, its columns named once here (console.js labels each cell with its
 * column for narrow screens), and what it says when there are no rows.
 */
export function table(id: string, caption: string, columns: string[], empty: string): SafeHtml {
  return html`<div class="table-scroll"><table id="${id}" data-empty="${empty}"><caption>${caption}</caption>
<thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead><tbody></tbody></table></div>`;
}

/** Where console.js says what it is doing: loading, failed, updated, live. */
export const STATUS_LINE = html`<p class="status-line" id="status" role="status" aria-live="polite"></p>`;

export function loginBody(error?: string): SafeHtml {
  return html`<h1>Log in</h1>
<form class="login" method="post" action="/console/login">
<label for="api-key">API key</label>
<input id="api-key" name="api_key" type="password" autocomplete="current-password" required autofocus${error ? html` aria-invalid="true" aria-describedby="login-error"` : undefined}>
${error ? html`<p class="error" id="login-error" role="alert">${error}</p>` : undefined}
<button type="submit">Log in</button>
</form>
<p class="hint">A key of <code>auth.api_keys</code> with <code>admin = true</code> (or matched by an <code>[[auth.rules]]</code> entry that sets it).</p>`;
}

export function overviewBody(): SafeHtml {
  return html`<h1>Overview</h1>
${STATUS_LINE}
<section aria-labelledby="processes-heading"><h2 id="processes-heading">Processes</h2>
${table('processes', 'API replicas and workers that reported recently', ['Role', 'Host', 'PID', 'Version', 'Started', 'Last seen'], 'No process has reported.')}</section>
<section aria-labelledby="queues-heading"><h2 id="queues-heading">Queues</h2>
${table('queues', 'Jobs per queue', ['Queue', 'Waiting', 'Active', 'Delayed', 'Failed', 'Median wait'], 'No queues.')}
<p class="hint" id="queue-wait-note"></p></section>
<section aria-labelledby="tasks-heading"><h2 id="tasks-heading">Tasks by state</h2>
${table('task-states', 'Stored tasks per state', ['State', 'Tasks'], 'No tasks are stored.')}</section>
<section aria-labelledby="errors-heading"><h2 id="errors-heading">Errors</h2>
<dl class="facts" id="errors"></dl>
<p class="hint" id="errors-note"></p></section>`;
}

export function agentsBody(): SafeHtml {
  return html`<h1>Agents</h1>
<p class="hint">To add, change or remove one: <a href="/console/catalog/agents">Catalog: agents</a>, <a href="/console/catalog/external-agents">external agents</a>.</p>
${STATUS_LINE}
<section aria-labelledby="hosted-heading"><h2 id="hosted-heading">Hosted agents</h2>
<ul class="cards" id="hosted-agents"></ul></section>
<section aria-labelledby="external-heading"><h2 id="external-heading">External A2A agents</h2>
${table('external-agents', 'Configured external agents and their discovery', ['Name', 'URL', 'Source', 'Discovery', 'Card'], 'No external agents are configured.')}</section>`;
}

export function mcpBody(): SafeHtml {
  return html`<h1>MCP upstreams</h1>
<p class="hint">To add, change or remove one: <a href="/console/catalog/mcp-servers">Catalog: MCP servers</a>.</p>
${STATUS_LINE}
${table('mcp-servers', 'Configured MCP servers', ['Name', 'Transport', 'State', 'Tools', 'Last error', 'Action'], 'No MCP servers are configured.')}`;
}

/** What the task list is filtered by: the query of `/console/tasks`, which is also the admin API's. */
export interface TaskFilters {
  state?: string;
  agent?: string;
  owner?: string;
  newerThan?: string;
  olderThan?: string;
}

const STATES = Object.values(TaskState)
  .filter((state): state is TaskState => typeof state === 'number' && state > TaskState.TASK_STATE_UNSPECIFIED)
  .map((state) => ({ value: taskStateToJSON(state), label: stateLabel(state) }));

const AGES = [
  { value: '300', label: '5 minutes' },
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '7 days' },
];

function select(
  name: string,
  label: string,
  anyLabel: string,
  options: { value: string; label: string }[],
  selected?: string,
): SafeHtml {
  return html`<div class="field"><label for="filter-${name}">${label}</label>
<select id="filter-${name}" name="${name}"><option value="">${anyLabel}</option>
${options.map((option) => html`<option value="${option.value}"${option.value === selected ? html` selected` : undefined}>${option.label}</option>`)}
</select></div>`;
}

export function tasksBody(filters: TaskFilters): SafeHtml {
  return html`<h1>Tasks</h1>
<form class="filters" method="get" action="/console/tasks" aria-label="Filter tasks">
${select('state', 'State', 'Any state', STATES, filters.state)}
<div class="field"><label for="filter-agent">Agent</label><input id="filter-agent" name="agent" value="${filters.agent ?? ''}"></div>
<div class="field"><label for="filter-owner">Owner</label><input id="filter-owner" name="owner" value="${filters.owner ?? ''}"></div>
${select('newerThan', 'Created within', 'Any time', AGES, filters.newerThan)}
${select(
  'olderThan',
  'Created before',
  'Up to now',
  AGES.map(({ value, label }) => ({ value, label: `${label} ago` })),
  filters.olderThan,
)}
<button type="submit">Filter</button>
</form>
${STATUS_LINE}
${table('tasks', 'Tasks, most recently updated first', ['Task', 'Agent', 'Owner', 'State', 'Created', 'Updated', 'Status'], 'No tasks match.')}
<button type="button" id="more-tasks" hidden>Load more</button>`;
}

/** The task's facts and timeline; Cancel shows only while the task has not ended, and asks first. */
export function taskBody(taskId: string): SafeHtml {
  return html`<p class="breadcrumb"><a href="/console/tasks">Tasks</a></p>
<h1>Task <code class="task-id">${taskId}</code></h1>
${STATUS_LINE}
<dl class="facts" id="task-facts"></dl>
<button type="button" id="cancel-task" class="danger" hidden>Cancel task</button>
<dialog id="confirm-cancel" aria-labelledby="confirm-cancel-heading" aria-describedby="confirm-cancel-text">
<h2 id="confirm-cancel-heading">Cancel this task?</h2>
<p id="confirm-cancel-text">Task <code>${taskId}</code> stops where it is: its agent's turn is interrupted and the task ends as canceled, for good.</p>
<div class="dialog-actions"><button type="button" class="quiet" value="keep" autofocus>Keep it running</button><button type="button" class="danger" value="cancel">Cancel the task</button></div>
</dialog>
<section aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2>
<p class="hint" id="timeline-note" hidden>Entries without a time come from the task as stored: the events that dated them are kept for an hour after the task ends.</p>
<ol class="timeline" id="timeline"></ol></section>`;
}
