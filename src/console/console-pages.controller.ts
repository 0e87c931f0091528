import { Controller, Get, NotFoundException, Param, Query, UseFilters, UseGuards } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { SwitchboardConfig } from '../config/config.schema';
import { storageMode } from '../config/storage-mode';
import { AdminGuard } from '../security/admin.guard';
import { auditBody, catalogBody, catalogPage, type AuditFilters } from './catalog-page-bodies';
import { ConsolePageHeaders } from './console-headers';
import { ConsoleLogins } from './console-logins.service';
import { LoginRedirectFilter } from './login-redirect.filter';
import { agentsBody, mcpBody, overviewBody, taskBody, tasksBody, type TaskFilters } from './page-bodies';
import { renderPage, type ConsolePage } from './page-layout';

/** The console's pages: shells that console.js fills from the admin API, for operators (the auth guard reads the login cookie). */
@Controller('console')
@UseGuards(AdminGuard)
@UseFilters(LoginRedirectFilter)
export class ConsolePagesController {
  private readonly traceUrl?: string;
  /** Entries added through the admin API live in memory only (no database): the catalog pages say so. */
  private readonly catalogInMemory: boolean;

  constructor(
    private readonly logins: ConsoleLogins,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.traceUrl = config.get('tracing', { infer: true }).trace_url;
    this.catalogInMemory =
      storageMode({
        database: config.get('database', { infer: true }),
        redis: config.get('redis', { infer: true }),
      }).tasks === 'memory';
  }

  @Get()
  @ConsolePageHeaders()
  overview(): string {
    return this.page({ title: 'Overview', section: 'overview', body: overviewBody(), data: { page: 'overview' } });
  }

  @Get('agents')
  @ConsolePageHeaders()
  agents(): string {
    return this.page({ title: 'Agents', section: 'agents', body: agentsBody(), data: { page: 'agents' } });
  }

  @Get('mcp')
  @ConsolePageHeaders()
  mcpServers(): string {
    return this.page({ title: 'MCP upstreams', section: 'mcp', body: mcpBody(), data: { page: 'mcp' } });
  }

  @Get('tasks')
  @ConsolePageHeaders()
  tasks(@Query() filters: TaskFilters): string {
    return this.page({ title: 'Tasks', section: 'tasks', body: tasksBody(filters), data: { page: 'tasks' } });
  }

  @Get('tasks/:id')
  @ConsolePageHeaders()
  task(@Param('id') id: string): string {
    return this.page({
      title: `Task ${id}`,
      section: 'tasks',
      body: taskBody(id),
      data: { page: 'task', 'task-id': id, 'trace-url': this.traceUrl },
    });
  }

  /** One kind of the catalog: `mcp-servers`, `external-agents`, `agents`, `keys`, `rules`. */
  @Get('catalog/:kind')
  @ConsolePageHeaders()
  catalog(@Param('kind') kind: string): string {
    const shown = catalogPage(kind);
    if (!shown) throw new NotFoundException(`no catalog page ${kind}`);
    return this.page({
      title: `${shown.title} · Catalog`,
      section: 'catalog',
      body: catalogBody(shown, this.catalogInMemory),
      data: { page: 'catalog', kind: shown.kind, path: shown.path, one: shown.one },
    });
  }

  @Get('audit')
  @ConsolePageHeaders()
  audit(@Query() filters: AuditFilters): string {
    return this.page({ title: 'Audit', section: 'audit', body: auditBody(filters), data: { page: 'audit' } });
  }

  private page(page: ConsolePage): string {
    return renderPage({ ...page, logout: this.logins.required });
  }
}
