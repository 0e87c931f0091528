import { html, type SafeHtml } from './html';

export type ConsoleSection = 'overview' | 'agents' | 'mcp' | 'tasks' | 'catalog' | 'audit';

const SECTIONS: { section: ConsoleSection; path: string; label: string }[] = [
  { section: 'overview', path: '/console', label: 'Overview' },
  { section: 'agents', path: '/console/agents', label: 'Agents' },
  { section: 'mcp', path: '/console/mcp', label: 'MCP upstreams' },
  { section: 'tasks', path: '/console/tasks', label: 'Tasks' },
  { section: 'catalog', path: '/console/catalog/mcp-servers', label: 'Catalog' },
  { section: 'audit', path: '/console/audit', label: 'Audit' },
];

export interface ConsolePage {
  title: string;
  body: SafeHtml;
  /** The section the page belongs to, marked current in the navigation; no navigation without one (the login form). */
  section?: ConsoleSection;
  /** Whether to offer a logout: only a service that requires keys has logins. */
  logout?: boolean;
  /** `data-*` attributes of `<main>`: what console.js reads to know the page and its task. */
  data?: Record<string, string | undefined>;
}

/** A whole console page: the shell console.js fills, with the landmarks and a skip link. */
export function renderPage(page: ConsolePage): string {
  const data = Object.entries(page.data ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => html` data-${name}="${value}"`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} · Switchboard console</title>
<link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header">
<p class="brand">Switchboard console</p>
${page.section ? navigation(page.section) : undefined}
${page.logout ? html`<form class="logout" method="post" action="/console/logout"><button type="submit" class="quiet">Log out</button></form>` : undefined}
</header>
<main id="main" tabindex="-1"${data}>
${page.body}
</main>
</body>
</html>
`.markup;
}

function navigation(current: ConsoleSection): SafeHtml {
  const links = SECTIONS.map(
    ({ section, path, label }) =>
      html`<li><a href="${path}"${section === current ? html` aria-current="page"` : undefined}>${label}</a></li>`,
  );
  return html`<nav aria-label="Console"><ul>${links}</ul></nav>`;
}
