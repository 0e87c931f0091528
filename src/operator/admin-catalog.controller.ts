import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  HttpStatus,
  MethodNotAllowedException,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CatalogEditor, type CreatedKey } from '../catalog/catalog-editor.service';
import { CatalogReader, type CatalogListing } from '../catalog/catalog-reader.service';
import type { CatalogEntryView } from '../catalog/catalog-views';
import { AdminGuard } from '../security/admin.guard';
import { principalOf } from '../security/principal';
import { CatalogErrorFilter } from './catalog-error.filter';
import { catalogKindOf, etagOf, ifMatchVersion } from './catalog-request';

/**
 * The catalog for operators (admin API): MCP servers, external agents, agents, keys and rules, listed
 * with their source and version, and changed at runtime. Bodies have the keys of the file's entries.
 * `GET /api/admin/mcp-servers` and `/agents` answer the status views (AdminController) with their
 * kind's `entries` beside them; the other kinds' lists are here.
 */
@Controller('api/admin')
@UseGuards(AdminGuard)
@UseFilters(CatalogErrorFilter)
export class AdminCatalogController {
  constructor(
    private readonly reader: CatalogReader,
    private readonly editor: CatalogEditor,
  ) {}

  /** Everything, or with `format=toml` a file that reproduces it. */
  @Get('catalog')
  async catalog(
    @Query('format') format: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CatalogListing | string> {
    if (format === 'toml') {
      void reply.type('application/toml; charset=utf-8');
      return this.reader.toml();
    }
    if (format !== undefined && format !== 'json')
      throw new BadRequestException(`format must be "json" or "toml", not ${JSON.stringify(format)}`);
    return this.reader.all();
  }

  /** `external-agents`, `keys`, `rules` (the other kinds' paths are AdminController's status views, with `entries`). */
  @Get(':kind')
  async list(@Param('kind') path: string): Promise<{ entries: CatalogEntryView[] }> {
    return { entries: await this.reader.list(catalogKindOf(path)) };
  }

  @Get(':kind/:name')
  async get(
    @Param('kind') path: string,
    @Param('name') name: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CatalogEntryView> {
    const view = await this.reader.get(catalogKindOf(path), name);
    void reply.header('etag', etagOf(view.version));
    return view;
  }

  @Post(':kind')
  @HttpCode(HttpStatus.CREATED)
  async create(
    @Param('kind') path: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CatalogEntryView | CreatedKey> {
    const kind = catalogKindOf(path);
    const actor = actorOf(request);
    const view =
      kind === 'keys' ? await this.editor.createKey(body, actor) : await this.editor.create(kind, body, actor);
    void reply
      .header('etag', etagOf(view.version))
      .header('location', `/api/admin/${path}/${encodeURIComponent(view.name)}`);
    return view;
  }

  @Put(':kind/:name')
  async update(
    @Param('kind') path: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CatalogEntryView> {
    const kind = catalogKindOf(path);
    if (kind === 'keys')
      throw new MethodNotAllowedException(
        'a key is not changed: create another (it is answered once) and delete this one',
      );
    const view = await this.editor.update(kind, name, body, ifMatchVersion(ifMatch), actorOf(request));
    void reply.header('etag', etagOf(view.version));
    return view;
  }

  @Delete(':kind/:name')
  @HttpCode(HttpStatus.NO_CONTENT)
  async remove(
    @Param('kind') path: string,
    @Param('name') name: string,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    await this.editor.remove(catalogKindOf(path), name, ifMatchVersion(ifMatch), actorOf(request));
  }
}

/** The caller who changed the catalog: its key's name or token's principal; "anonymous" when the service runs without keys. */
function actorOf(request: FastifyRequest): string {
  return principalOf(request)?.name ?? 'anonymous';
}
