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

async function api(path, options) {
  const response = await fetch(path, {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    ...options,
  });
  // The login ended (logged out elsewhere, the key removed): back to the form.
  if (response.status === 401) window.location.assign('/console/login');
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  return response.status === 204 ? undefined : response.json();
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

const PAGES = { overview: overviewPage, agents: agentsPage, mcp: mcpPage, tasks: tasksPage, task: taskPage };

document.addEventListener('DOMContentLoaded', () => {
  const main = document.getElementById('main');
  const page = PAGES[main.dataset.page];
  if (page) page(main);
});
