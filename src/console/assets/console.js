// The console's one script: fills the page shells from the admin API (same-origin, with the login
// cookie) and keeps them current. Text from the API only ever goes into the page as text nodes.
'use strict';

const REFRESH_MS = 3000;
const ENDED_STATES = ['TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED'];

/** An element with attributes (`class`, `href`, `data-*`...) and children: strings become text, never markup. */
function el(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== undefined && value !== null && value !== false)
      element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(
    ...children
      .flat()
      .filter((child) => child !== undefined && child !== null)
      .map((child) => (child instanceof Node ? child : String(child))),
  );
  return element;
}

/** A refusal of the admin API: its status and JSON body (`message`, and `problems` or `currentVersion` where it gives them). */
class ApiError extends Error {
  constructor(path, status, text) {
    super(`${path} answered ${status}: ${text.slice(0, 300)}`);
    this.status = status;
    try {
      this.body = JSON.parse(text);
    } catch {
      this.body = { message: text };
    }
  }
}

async function api(path, options) {
  const response = await fetch(path, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    ...options,
  });
  // The login ended (logged out elsewhere, the key removed): back to the form.
  if (response.status === 401) window.location.assign('/console/login');
  if (!response.ok) throw new ApiError(path, response.status, await response.text());
  return response.status === 204 ? undefined : response.json();
}

/** `body` as JSON to the admin API, with `headers` (If-Match) besides. */
function sendJson(path, method, body, headers) {
  return api(path, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/** What the API said was wrong, without the path and status the message starts with. */
function reason(error) {
  return (error.body && error.body.message) || error.message;
}

function say(text, problem) {
  const status = document.getElementById('status');
  status.textContent = text;
  status.classList.toggle('problem', Boolean(problem));
}

function stateLabel(state) {
  return String(state || 'unknown')
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

function stateBadge(state) {
  return el('span', { class: `state state-${stateLabel(state)}` }, stateLabel(state));
}

function when(value) {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? String(value)
    : el('time', { datetime: date.toISOString(), title: date.toISOString() }, date.toLocaleString());
}

/**
 * Makes `table`'s rows show `items`, one per key, in order. Rows and cells are kept while their
 * content is the same, so an update neither moves keyboard focus nor makes screen readers reread.
 */
function syncRows(table, items, keyOf, cellsOf) {
  const labels = [...table.tHead.rows[0].cells].map((cell) => cell.textContent);
  const body = table.tBodies[0];
  const rows = new Map([...body.rows].map((row) => [row.dataset.key, row]));
  items.forEach((item, index) => {
    const key = String(keyOf(item));
    let row = rows.get(key);
    if (!row)
      row = el(
        'tr',
        { 'data-key': key },
        labels.map((label) => el('td', { 'data-label': label })),
      );
    rows.delete(key);
    cellsOf(item).forEach((content, column) => setContent(row.cells[column], content));
    if (body.rows[index] !== row) body.insertBefore(row, body.rows[index] || null);
  });
  rows.forEach((row) => row.remove());
  if (items.length === 0)
    body.replaceChildren(el('tr', {}, el('td', { colspan: labels.length, class: 'empty' }, table.dataset.empty)));
}

/** Replaces `cell`'s content unless it would look the same. */
function setContent(cell, content) {
  const next = el('td', {}, content);
  if (next.innerHTML !== cell.innerHTML) cell.replaceChildren(...next.childNodes);
}

function facts(list, entries) {
  list.replaceChildren(...entries.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));
}

/**
 * Runs `load` now and every REFRESH_MS while the page is shown. The status line changes only when
 * loading starts or stops working: it is a live region, and screen readers read each change.
 */
function keepLoading(load) {
  const run = async () => {
    try {
      await load();
      say(`Updated every ${REFRESH_MS / 1000} seconds.`);
    } catch (error) {
      say(`Could not load: ${error.message}`, true);
    }
  };
  void run();
  setInterval(() => {
    if (document.visibilityState === 'visible') void run();
  }, REFRESH_MS);
}

// Overview: processes, queues, tasks by state, errors.
function overviewPage() {
  keepLoading(async () => {
    const overview = await api('/api/admin/overview');
    syncRows(
      document.getElementById('processes'),
      overview.processes,
      (process) => process.id,
      (process) => [
        process.role,
        process.host,
        process.pid,
        process.version,
        when(process.startedAt),
        when(process.lastSeenAt),
      ],
    );
    syncRows(
      document.getElementById('queues'),
      Object.entries(overview.queues),
      ([name]) => name,
      ([name, counts]) => {
        const wait = overview.queueWait[name];
        return [
          name,
          counts.waiting,
          counts.active,
          counts.delayed,
          counts.failed,
          wait === null || wait === undefined ? '—' : `${wait} s`,
        ];
      },
    );
    document.getElementById('queue-wait-note').textContent = `Median wait: ${overview.queueWaitScope.note}.`;
    syncRows(
      document.getElementById('task-states'),
      Object.entries(overview.tasks.byState),
      ([state]) => state,
      ([state, count]) => [stateBadge(state), count],
    );
    const { turnsFailedLastHour, turnsLastHour } = overview.errors;
    const rate = turnsLastHour > 0 ? `${((100 * turnsFailedLastHour) / turnsLastHour).toFixed(1)} %` : 'no turns';
    facts(document.getElementById('errors'), [
      ['Turns in the last hour', turnsLastHour],
      ['Failed', turnsFailedLastHour],
      ['Error rate', rate],
    ]);
    document.getElementById('errors-note').textContent = `Counted from ${overview.errors.basis}.`;
  });
}

// Agents: hosted ones with their cards, external ones with their discovery.
function agentsPage() {
  let shown;
  keepLoading(async () => {
    const { hosted, external } = await api('/api/admin/agents');
    // Hosted agents change only with the config: the cards are built again only then, so the focus and open cards stay.
    if (JSON.stringify(hosted) !== shown) {
      shown = JSON.stringify(hosted);
      document
        .getElementById('hosted-agents')
        .replaceChildren(
          ...hosted.map((agent) =>
            el(
              'li',
              { class: 'card' },
              el('h3', {}, agent.name),
              el('p', {}, agent.description || 'No description.'),
              el('p', {}, el('a', { href: agent.cardUrl }, 'Agent card (JSON)')),
              el(
                'details',
                {},
                el('summary', {}, `Card of ${agent.name}`),
                el('pre', {}, JSON.stringify(agent.card, null, 2)),
              ),
            ),
          ),
        );
    }
    syncRows(
      document.getElementById('external-agents'),
      external.agents,
      (agent) => agent.name,
      (agent) => [
        agent.name,
        agent.url,
        agent.source,
        discovery(agent.status),
        agent.card ? `${agent.card.name} ${agent.card.version}` : '—',
      ],
    );
  });
}

function discovery(status) {
  return [
    el('span', { class: `state state-${status.state}` }, status.state),
    status.error ? ` ${status.error}` : undefined,
  ];
}

// MCP upstreams: what runs or is reached, state, tools, what went wrong, reconnect.
function mcpPage() {
  const table = document.getElementById('mcp-servers');
  const load = async () => {
    const view = await api('/api/admin/mcp-servers');
    const tools = new Map(view.connected.map((server) => [server.name, server.tools]));
    syncRows(
      table,
      view.configured,
      (server) => server.name,
      (server) => [
        server.name,
        endpoint(server.transport),
        el('span', { class: `state state-${server.status.state}` }, server.status.state),
        toolList(server.name, tools.get(server.name)),
        upstreamProblem(server.name, server.status),
        el(
          'button',
          { type: 'button', 'data-reconnect': server.name, 'aria-label': `Reconnect ${server.name}` },
          'Reconnect',
        ),
      ],
    );
  };
  table.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-reconnect]');
    if (!button) return;
    const name = button.dataset.reconnect;
    button.disabled = true;
    say(`Reconnecting ${name}…`);
    try {
      await api(`/api/admin/mcp-servers/${encodeURIComponent(name)}/reconnect`, { method: 'POST' });
      await load();
      say(`Asked ${name} to reconnect.`);
    } catch (error) {
      say(`Could not reconnect ${name}: ${error.message}`, true);
    } finally {
      button.disabled = false;
    }
  });
  keepLoading(load);
}

/** The command a stdio server runs, or the URL a remote one is reached at (the API has left the secrets out). */
function endpoint(transport) {
  const where = transport.type === 'stdio' ? [transport.command, ...(transport.args || [])].join(' ') : transport.url;
  return `${transport.type}: ${where}`;
}

/** Why a server is not connected: the last error, how many times in a row, the next attempt, and a stdio server's last stderr lines. */
function upstreamProblem(server, status) {
  if (!status.error) return '—';
  const failures = status.failures || 0;
  const next = status.nextRetryAt
    ? el('span', { class: 'next-attempt' }, '; next attempt at ', when(status.nextRetryAt))
    : status.state === 'connecting'
      ? '; trying again now'
      : undefined;
  const stderr =
    status.stderr && status.stderr.length > 0
      ? el(
          'details',
          { class: 'problem-detail' },
          el('summary', {}, `Last stderr lines (${status.stderr.length})`),
          el('pre', { 'aria-label': `stderr of ${server}` }, status.stderr.join('\n')),
        )
      : undefined;
  return [
    status.error,
    failures > 0
      ? el('p', { class: 'problem-detail' }, `Failed ${failures} time${failures === 1 ? '' : 's'} in a row`, next)
      : undefined,
    stderr,
  ];
}

function toolList(server, tools) {
  if (!tools || tools.length === 0) return 'none';
  return el(
    'details',
    {},
    el('summary', {}, `${tools.length} tools`),
    el(
      'ul',
      { 'aria-label': `Tools of ${server}` },
      tools.map((tool) => el('li', { title: tool.description || '' }, tool.name)),
    ),
  );
}

// Tasks: the filtered list, updated live from the changes stream.
function tasksPage() {
  const table = document.getElementById('tasks');
  const more = document.getElementById('more-tasks');
  const filters = new URLSearchParams(window.location.search);
  for (const [name, value] of [...filters]) if (value === '') filters.delete(name);
  const tasks = new Map();
  let nextPageToken;

  const render = () => {
    const ordered = [...tasks.values()].sort((a, b) => String(b.updatedAt).localeCompare(String(a.updatedAt)));
    syncRows(
      table,
      ordered,
      (task) => task.id,
      (task) => [
        el('a', { href: `/console/tasks/${encodeURIComponent(task.id)}` }, task.id),
        task.agent || '—',
        task.owner,
        stateBadge(task.state),
        when(task.createdAt),
        when(task.updatedAt),
        task.statusText || '',
      ],
    );
  };
  const fetchPage = async (pageToken) => {
    const query = new URLSearchParams(filters);
    if (pageToken) query.set('pageToken', pageToken);
    const page = await api(`/api/admin/tasks?${query}`);
    for (const task of page.tasks) tasks.set(task.id, task);
    render();
    return page;
  };
  const loadMore = async () => {
    const page = await fetchPage(nextPageToken);
    nextPageToken = page.nextPageToken;
    more.hidden = !nextPageToken;
  };
  more.addEventListener('click', () => loadMore().catch((error) => say(`Could not load more: ${error.message}`, true)));

  // A change moves its row at once; the first page read again brings new tasks that fit the filters
  // (the server applies them) and the rows' other columns.
  const refreshFirstPage = throttled(() =>
    fetchPage().catch((error) => say(`Could not update the list: ${error.message}`, true)),
  );
  const changes = new EventSource('/api/admin/tasks/changes');
  changes.addEventListener('open', () => say('Live: the list follows task changes.'));
  changes.addEventListener('error', () => say('Live updates interrupted; reconnecting…', true));
  changes.addEventListener('message', (message) => {
    const change = JSON.parse(message.data);
    const known = tasks.get(change.taskId);
    if (known) {
      tasks.set(change.taskId, { ...known, state: change.state, updatedAt: change.updatedAt });
      render();
    }
    refreshFirstPage();
  });
  loadMore().catch((error) => say(`Could not load tasks: ${error.message}`, true));
}

// One task: its facts, its timeline (live), cancel once confirmed.
function taskPage(main) {
  const id = main.dataset.taskId;
  const timeline = document.getElementById('timeline');
  const cancel = document.getElementById('cancel-task');
  const confirmCancel = document.getElementById('confirm-cancel');
  const path = `/api/admin/tasks/${encodeURIComponent(id)}`;
  let shownTimeline;

  const show = (detail) => {
    const { task } = detail;
    const state = task.status && task.status.state;
    facts(document.getElementById('task-facts'), [
      ['State', stateBadge(state)],
      ['Agent', detail.agent || '—'],
      ['Owner', detail.owner],
      ['Context', task.contextId],
      ['Created', when(detail.createdAt)],
      ['Updated', when(detail.updatedAt)],
      ...(detail.remoteTask ? [['Remote task', `${detail.remoteTask.taskId} at ${detail.remoteTask.agent}`]] : []),
      ['Trace', traceLink(main.dataset.traceUrl, detail.traceId)],
    ]);
    const ended = ENDED_STATES.includes(state);
    // The focus would be lost with the button: it goes to the page, where a screen reader starts again.
    if (ended && document.activeElement === cancel) main.focus();
    cancel.hidden = ended;
    if (ended && confirmCancel.open) confirmCancel.close();
    // Built again only when something was added, so an open entry and the focus stay.
    const entries = detail.timeline.map(timelineEntry);
    if (JSON.stringify(entries) !== shownTimeline) {
      shownTimeline = JSON.stringify(entries);
      timeline.replaceChildren(...entries.map(timelineItem));
      document.getElementById('timeline-note').hidden = entries.every((entry) => entry.at);
    }
  };
  const load = async () => show(await api(path));
  const reload = throttled(() => load().catch((error) => say(`Could not reload: ${error.message}`, true)));

  cancel.addEventListener('click', () => confirmCancel.showModal());
  confirmCancel.addEventListener('click', (event) => {
    const button = event.target.closest('button[value]');
    if (button) confirmCancel.close(button.value);
  });
  // Escape closes it too, with no value: nothing is canceled.
  confirmCancel.addEventListener('close', async () => {
    if (confirmCancel.returnValue !== 'cancel') return;
    confirmCancel.returnValue = '';
    cancel.disabled = true;
    say('Canceling…');
    try {
      show(await api(`${path}/cancel`, { method: 'POST' }));
      say('Task canceled.');
    } catch (error) {
      say(`Could not cancel: ${error.message}`, true);
    } finally {
      cancel.disabled = false;
    }
  });

  load()
    .then(() => {
      const events = new EventSource(`${path}/events`);
      events.addEventListener('open', () => say('Live: the timeline follows the task.'));
      events.addEventListener('error', () => say('Live updates interrupted; reconnecting…', true));
      events.addEventListener('message', (message) => {
        const item = JSON.parse(message.data);
        // An event or an activity entry reloads the task: its timeline is the one account of both.
        if (item.kind === 'snapshot') return show(item.detail);
        reload();
      });
    })
    .catch((error) => say(`Could not load the task: ${error.message}`, true));
}

/**
 * `run` at most once a second: calls in between fold into one run when the second is up. A busy
 * task streams many events, a busy service many changes; each run is a request, and the key's rate
 * limit counts them.
 */
function throttled(run) {
  let timer;
  let last = -Infinity;
  return () => {
    if (timer) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        last = Date.now();
        run();
      },
      Math.max(0, last + 1000 - Date.now()),
    );
  };
}

function traceLink(template, traceId) {
  if (!traceId) return 'not traced';
  return template
    ? el('a', { href: template.replace('{trace_id}', encodeURIComponent(traceId)) }, traceId)
    : el('code', {}, traceId);
}

/** A timeline entry of the API (GET /api/admin/tasks/{id}, `timeline`) as the page shows it. */
function timelineEntry(entry) {
  switch (entry.kind) {
    case 'status':
      return {
        kind: 'status',
        state: stateLabel(entry.state),
        title: `Status: ${stateLabel(entry.state)}`,
        at: entry.at,
        text: entry.parts ? partsText(entry.parts) : undefined,
      };
    case 'message':
      return {
        kind: 'message',
        title: entry.role === 'ROLE_USER' ? 'Message from the caller' : 'Message from the agent',
        at: entry.at,
        text: partsText(entry.parts),
      };
    case 'artifact':
      return {
        kind: 'artifact',
        title: `Artifact ${entry.name || entry.artifactId}`,
        at: entry.at,
        text: partsText(entry.parts),
      };
    default:
      return activityEntry(entry);
  }
}

function activityEntry(item) {
  const titles = { tool_call: 'Tool call', delegation: 'Delegation', webhook_delivery: 'Webhook delivery' };
  const details = [item.durationMs !== undefined ? `${item.durationMs} ms` : undefined, item.outcome]
    .filter(Boolean)
    .join(', ');
  return {
    kind: item.kind,
    title: `${titles[item.kind] || item.kind}: ${item.summary}`,
    at: item.at,
    text: details || undefined,
    detail:
      item.detail === undefined
        ? undefined
        : typeof item.detail === 'string'
          ? item.detail
          : JSON.stringify(item.detail, null, 2),
  };
}

function timelineItem(entry) {
  return el(
    'li',
    { class: `event event-${entry.kind}${entry.state ? ` state-${entry.state}` : ''}` },
    el(
      'p',
      { class: 'event-title' },
      entry.at ? when(entry.at) : el('span', { class: 'no-time' }, 'time not kept'),
      ' ',
      el('strong', {}, entry.title),
    ),
    entry.text ? el('p', { class: 'event-text' }, entry.text) : undefined,
    entry.detail ? el('details', {}, el('summary', {}, 'Details'), el('pre', {}, entry.detail)) : undefined,
  );
}

/** The parts of a message or artifact as one text: a streamed artifact's parts are pieces of one text, so they join with nothing between. */
function partsText(parts) {
  return (parts || [])
    .map((part) =>
      part.text !== undefined
        ? part.text
        : part.data !== undefined
          ? JSON.stringify(part.data)
          : part.url || (part.filename ? `[file ${part.filename}]` : '[file]'),
    )
    .join('');
}

// Catalog: one kind's entries (the file's read-only), added, edited (If-Match the version read) and
// deleted through the admin API; MCP servers tried before saving, external agents' cards fetched.
const FIRST_ENTRIES = { mcp_servers: { transport: { type: 'http' } }, agents: { executor: { type: 'echo' } } };

function catalogPage(main) {
  const { kind, path, one } = main.dataset;
  const isKeys = kind === 'keys';
  const table = document.getElementById('catalog-entries');
  const addButton = document.getElementById('add-entry');
  const editor = document.getElementById('editor');
  const heading = document.getElementById('editor-heading');
  const form = document.getElementById('entry-form');
  const fields = [...form.querySelectorAll('[data-path]')];
  const nameField = form.querySelector('[data-path="name"]');
  const json = document.getElementById('entry-json');
  const problems = document.getElementById('form-problems');
  const saveButton = document.getElementById('save-entry');
  const tryButton = document.getElementById('try-entry');
  const trialStatus = document.getElementById('trial-status');
  const confirmDelete = document.getElementById('confirm-delete');
  let listed = [];
  /** The entry in the form, and while editing its name and the version it was read at. */
  let entry = {};
  let editing;
  /** Where the focus goes back to when the form closes. */
  let opener;
  let deleting;

  const outcome = (text, problem) => {
    const line = document.getElementById('outcome');
    line.textContent = text;
    line.classList.toggle('problem', Boolean(problem));
  };

  /** What a trial found: one line, announced, and what it lists, not read out as a whole. */
  const showTrial = (text, detail, problem) => {
    trialStatus.textContent = text;
    trialStatus.classList.toggle('problem', Boolean(problem));
    document.getElementById('trial-detail').replaceChildren(...detail);
  };

  const load = async () => {
    const catalog = await api('/api/admin/catalog');
    listed = catalog.entries[kind];
    syncRows(
      table,
      listed,
      (view) => view.name,
      (view) => [
        view.name,
        view.source === 'file' ? 'config file (read-only)' : 'admin API',
        view.version,
        when(view.updated_at),
        entrySummary(kind, view),
        view.source === 'file' ? el('span', { class: 'hint' }, 'Change it in the file') : entryActions(view, isKeys),
      ],
    );
  };

  const showEntry = () => {
    for (const field of fields) showFieldValue(field, valueAt(entry, field.dataset.path));
    if (json) {
      json.value = JSON.stringify(entry, null, 2);
      json.removeAttribute('aria-invalid');
    }
  };

  const showProblems = (title, list, action) => {
    for (const field of [...fields, json]) if (field) field.removeAttribute('aria-invalid');
    if (list.length === 0) {
      problems.hidden = true;
      problems.replaceChildren();
      return;
    }
    for (const field of fields)
      if (list.some((problem) => problemOf(problem, field.dataset.path))) field.setAttribute('aria-invalid', 'true');
    problems.replaceChildren(
      el('p', {}, el('strong', {}, title)),
      el(
        'ul',
        {},
        list.map((problem) => el('li', {}, problem)),
      ),
      action,
    );
    problems.hidden = false;
  };

  /** The body to send: the JSON of the whole entry, or for keys the fields; undefined (and said why) when the JSON does not parse. */
  const body = () => {
    if (!json) return entry;
    try {
      const parsed = JSON.parse(json.value);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('it is not a JSON object');
      return parsed;
    } catch (error) {
      showProblems('The entry was not sent:', [`The whole entry's JSON is not valid: ${error.message}`]);
      json.setAttribute('aria-invalid', 'true');
      json.focus();
      return undefined;
    }
  };

  const openEditor = async (name, from) => {
    opener = from;
    if (name === undefined) {
      editing = undefined;
      entry = JSON.parse(JSON.stringify(FIRST_ENTRIES[kind] || {}));
      heading.textContent = isKeys ? 'Create a key' : `Add ${one}`;
    } else {
      try {
        const view = await api(`/api/admin/${path}/${encodeURIComponent(name)}`);
        editing = { name, version: view.version };
        entry = view.entry;
        heading.textContent = `Edit ${name} (version ${view.version})`;
      } catch (error) {
        outcome(`Could not read ${name}: ${reason(error)}`, true);
        return;
      }
    }
    nameField.readOnly = editing !== undefined;
    showProblems('', []);
    if (trialStatus) showTrial('', []);
    showEntry();
    editor.hidden = false;
    heading.focus();
  };

  const closeEditor = () => {
    editor.hidden = true;
    editing = undefined;
    showProblems('', []);
    (opener && opener.isConnected ? opener : addButton).focus();
  };

  /** Why the API refused the entry, next to the form; a 412 offers to read the entry again. */
  const refused = (title, error) => {
    if (error.status === 412) {
      const reload = el('button', { type: 'button', class: 'quiet' }, 'Reload the entry');
      reload.addEventListener('click', () => openEditor(editing.name, opener));
      showProblems(
        title,
        [
          `Changed by someone else since you opened it (it is now at version ${error.body.currentVersion}): reload it to see their change, then make yours again.`,
        ],
        reload,
      );
    } else showProblems(title, error.body.problems || [reason(error)]);
    problems.focus();
  };

  addButton.addEventListener('click', () => openEditor(undefined, addButton));
  document.getElementById('close-editor').addEventListener('click', closeEditor);
  form.addEventListener('input', (event) => {
    const field = event.target;
    if (field === json) {
      try {
        const parsed = JSON.parse(json.value);
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        entry = parsed;
        json.removeAttribute('aria-invalid');
        for (const each of fields) showFieldValue(each, valueAt(entry, each.dataset.path));
      } catch {
        json.setAttribute('aria-invalid', 'true');
      }
      return;
    }
    if (!field.dataset.path) return;
    setValueAt(entry, field.dataset.path, fieldValue(field));
    if (json) json.value = JSON.stringify(entry, null, 2);
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const sent = body();
    if (!sent) return;
    saveButton.disabled = true;
    try {
      if (isKeys) {
        const created = await sendJson('/api/admin/keys', 'POST', sent);
        closeEditor();
        showCreatedKey(created, outcome);
      } else if (editing) {
        const view = await sendJson(`/api/admin/${path}/${encodeURIComponent(editing.name)}`, 'PUT', sent, {
          'if-match': `"${editing.version}"`,
        });
        closeEditor();
        outcome(`Saved ${view.name}: now at version ${view.version}.`);
      } else {
        const view = await sendJson(`/api/admin/${path}`, 'POST', sent);
        closeEditor();
        outcome(`Added ${view.name}.`);
      }
      await load();
    } catch (error) {
      refused(isKeys ? 'The key was not created:' : 'The entry was not saved:', error);
    } finally {
      saveButton.disabled = false;
    }
  });

  if (tryButton)
    tryButton.addEventListener('click', async () => {
      const sent = body();
      if (!sent) return;
      tryButton.disabled = true;
      showProblems('', []);
      showTrial(kind === 'mcp_servers' ? 'Connecting…' : 'Fetching the card…', []);
      try {
        const answer = await sendJson(`/api/admin/${tryButton.dataset.trial}`, 'POST', sent);
        if (kind === 'mcp_servers')
          showTrial(
            `Connected: it would bring ${answer.tools.length} tool${answer.tools.length === 1 ? '' : 's'}.`,
            toolsFound(answer.tools),
          );
        else showTrial(`Card read from ${answer.cardUrl}.`, cardFound(answer.card));
      } catch (error) {
        if (error.status === 502) showTrial(`${tryButton.textContent} failed: ${reason(error)}`, [], true);
        else {
          showTrial('', []);
          refused('Not tried:', error);
        }
      } finally {
        tryButton.disabled = false;
      }
    });

  table.addEventListener('click', (event) => {
    const edit = event.target.closest('button[data-edit]');
    if (edit) return void openEditor(edit.dataset.edit, edit);
    const remove = event.target.closest('button[data-delete]');
    if (!remove) return;
    deleting = listed.find((view) => view.name === remove.dataset.delete);
    if (!deleting) return;
    document.getElementById('confirm-delete-heading').textContent = `Delete ${deleting.name}?`;
    document.getElementById('confirm-delete-text').textContent =
      `${one[0].toUpperCase()}${one.slice(1)} stops applying on every process within seconds${isKeys ? ': its holders are refused from then on' : ''}. This cannot be undone.`;
    confirmDelete.showModal();
  });
  confirmDelete.addEventListener('click', (event) => {
    const button = event.target.closest('button[value]');
    if (button) confirmDelete.close(button.value);
  });
  // Escape closes it too, with no value: nothing is deleted.
  confirmDelete.addEventListener('close', async () => {
    const view = deleting;
    deleting = undefined;
    if (confirmDelete.returnValue !== 'delete' || !view) return;
    confirmDelete.returnValue = '';
    try {
      await api(`/api/admin/${path}/${encodeURIComponent(view.name)}`, {
        method: 'DELETE',
        headers: { accept: 'application/json', 'if-match': `"${view.version}"` },
      });
      outcome(`Deleted ${view.name}.`);
      addButton.focus();
    } catch (error) {
      outcome(
        error.status === 412
          ? `Not deleted: ${view.name} was changed by someone else since the list was read. Look at it again first.`
          : `Could not delete ${view.name}: ${reason(error)}`,
        true,
      );
    }
    await load().catch((error) => say(`Could not load: ${error.message}`, true));
  });

  keepLoading(load);
}

/** In one element, so that at phone widths the cell keeps its two columns: its label, then this. */
function entryActions(view, isKeys) {
  return el(
    'div',
    { class: 'row-actions' },
    isKeys
      ? undefined
      : el('button', { type: 'button', 'data-edit': view.name, 'aria-label': `Edit ${view.name}` }, 'Edit'),
    el(
      'button',
      { type: 'button', class: 'danger', 'data-delete': view.name, 'aria-label': `Delete ${view.name}` },
      'Delete',
    ),
  );
}

/** An entry in a line (where it is reached, what it grants), and all of it in JSON on demand. */
function entrySummary(kind, view) {
  const entry = view.entry;
  const line = {
    mcp_servers: () => (entry.transport ? endpoint(entry.transport) : ''),
    external_agents: () => entry.url,
    agents: () =>
      `${entry.executor ? entry.executor.type : '?'} executor${entry.description ? `: ${entry.description}` : ''}`,
    keys: () => grants(entry),
    rules: () => grants(entry),
  }[kind]();
  return el(
    'div',
    {},
    line,
    el(
      'details',
      { class: 'problem-detail' },
      el('summary', {}, `Entry of ${view.name}`),
      el('pre', {}, JSON.stringify(entry, null, 2)),
    ),
  );
}

function grants(entry) {
  const list = (name) => (entry[name] ? `${name}: ${entry[name].join(', ')}` : undefined);
  return (
    [
      entry.expires_at ? `expires ${new Date(entry.expires_at).toLocaleString()}` : undefined,
      list('keys'),
      list('subjects'),
      entry.admin ? 'operator rights' : undefined,
      list('tools'),
      list('agents'),
      entry.metrics_only ? '/metrics only' : undefined,
    ]
      .filter(Boolean)
      .join('; ') || 'no conditions, no limits'
  );
}

/** Whether `problem` (`transport.url: Invalid URL`) is about the field at `path`. */
function problemOf(problem, path) {
  return problem.startsWith(`${path}:`) || problem.startsWith(`${path}.`) || problem.startsWith(`${path}[`);
}

function valueAt(object, path) {
  return path.split('.').reduce((at, key) => (at && typeof at === 'object' ? at[key] : undefined), object);
}

/** Sets (or with undefined, removes) the value at `path`, making the objects on the way. */
function setValueAt(object, path, value) {
  const keys = path.split('.');
  const last = keys.pop();
  let at = object;
  for (const key of keys) {
    if (!at[key] || typeof at[key] !== 'object' || Array.isArray(at[key])) {
      if (value === undefined) return;
      at[key] = {};
    }
    at = at[key];
  }
  if (value === undefined) delete at[last];
  else at[last] = value;
}

/** A field's value as the entry holds it; undefined for an empty one, which leaves the key out. */
function fieldValue(field) {
  switch (field.dataset.type) {
    case 'boolean':
      return field.checked ? true : undefined;
    case 'number':
      return field.value === '' ? undefined : Number(field.value);
    case 'list': {
      const items = field.value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      return items.length > 0 ? items : undefined;
    }
    case 'datetime':
      return field.value === '' ? undefined : new Date(field.value).toISOString();
    default:
      return field.value === '' ? undefined : field.value;
  }
}

function showFieldValue(field, value) {
  switch (field.dataset.type) {
    case 'boolean':
      field.checked = value === true;
      return;
    case 'list':
      field.value = Array.isArray(value) ? value.join(', ') : '';
      return;
    case 'datetime':
      field.value = value ? localDateTime(new Date(value)) : '';
      return;
    default:
      field.value = value === undefined || value === null || typeof value === 'object' ? '' : String(value);
  }
}

/** A time as a datetime-local field takes it: the browser's local time, to the minute. */
function localDateTime(date) {
  const two = (number) => String(number).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}`;
}

function toolsFound(tools) {
  return [
    el(
      'ul',
      { class: 'tool-list', 'aria-label': 'Tools it would bring' },
      tools.map((tool) => el('li', {}, el('code', {}, tool.name), tool.description ? ` — ${tool.description}` : '')),
    ),
    el('p', { class: 'hint' }, 'As the server names them; Switchboard offers each as mcp_<server name>_<tool>.'),
  ];
}

function cardFound(card) {
  const list = el('dl', { class: 'facts' });
  facts(list, [
    ['Name', card.name],
    ['Description', card.description || '—'],
    ['Version', card.version || '—'],
    ['Skills', (card.skills || []).map((skill) => skill.name || skill.id).join(', ') || 'none'],
  ]);
  return [list, el('details', {}, el('summary', {}, 'The card (JSON)'), el('pre', {}, JSON.stringify(card, null, 2)))];
}

/** A key just created, shown once: copy it, then it is forgotten (the page never reads it again). */
function showCreatedKey(created, outcome) {
  const panel = document.getElementById('created-key');
  const value = document.getElementById('created-key-value');
  document.getElementById('created-key-name').textContent = created.name;
  value.value = created.key;
  panel.hidden = false;
  document.getElementById('created-key-heading').focus();
  document.getElementById('copy-key').onclick = async () => {
    try {
      await window.navigator.clipboard.writeText(value.value);
      outcome(`Key ${created.name} copied to the clipboard.`);
    } catch {
      value.focus();
      value.select();
      outcome('Could not copy: the key is selected, copy it with Ctrl+C.', true);
    }
  };
  document.getElementById('forget-key').onclick = () => {
    value.value = '';
    panel.hidden = true;
    document.getElementById('add-entry').focus();
    outcome(`Key ${created.name} is no longer shown anywhere.`);
  };
}

// Audit: the trail, newest first, filtered by the form's query, a page at a time.
function auditPage() {
  const table = document.getElementById('audit');
  const more = document.getElementById('more-audit');
  const filters = new URLSearchParams(window.location.search);
  for (const [name, value] of [...filters]) if (value === '') filters.delete(name);
  // The field gives the browser's local time; the API takes an instant.
  const since = new Date(filters.get('since'));
  if (filters.has('since') && !Number.isNaN(since.getTime())) filters.set('since', since.toISOString());
  const entries = [];
  let nextPageToken;

  const loadMore = async () => {
    const query = new URLSearchParams(filters);
    if (nextPageToken) query.set('pageToken', nextPageToken);
    const page = await api(`/api/admin/audit?${query}`);
    entries.push(...page.entries);
    nextPageToken = page.nextPageToken;
    syncRows(
      table,
      entries,
      (entry) => entry.id,
      (entry) => [
        when(entry.at),
        entry.actor,
        entry.action,
        entry.target,
        entry.detail
          ? el(
              'details',
              {},
              el('summary', {}, entry.detail.version ? `Version ${entry.detail.version}` : 'Detail'),
              el('pre', {}, JSON.stringify(entry.detail, null, 2)),
            )
          : '—',
      ],
    );
    // The focus would be lost with the button: it goes to the page.
    if (!nextPageToken && document.activeElement === more) document.getElementById('main').focus();
    more.hidden = !nextPageToken;
    say(`${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} shown${nextPageToken ? '; more are older' : ''}.`);
  };
  more.addEventListener('click', () => loadMore().catch((error) => say(`Could not load more: ${reason(error)}`, true)));
  loadMore().catch((error) => say(`Could not load the audit trail: ${reason(error)}`, true));
}

const PAGES = {
  overview: overviewPage,
  agents: agentsPage,
  mcp: mcpPage,
  tasks: tasksPage,
  task: taskPage,
  catalog: catalogPage,
  audit: auditPage,
};

document.addEventListener('DOMContentLoaded', () => {
  const main = document.getElementById('main');
  const page = PAGES[main.dataset.page];
  if (page) page(main);
});
