import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../security/public.decorator';

/** The console's script, stylesheet and icon, read once from `assets/` beside this file (nest-cli.json copies them into dist/). */
const ASSETS = new Map(
  [
    ['console.js', 'text/javascript; charset=utf-8'],
    ['console.css', 'text/css; charset=utf-8'],
    // Named by every page, so the browser does not ask for /favicon.ico, which nothing serves.
    ['favicon.svg', 'image/svg+xml'],
  ].map(([file, type]) => [file, { type, body: readFileSync(join(__dirname, 'assets', file)) }]),
);

/** Public: they hold no data, and the login form needs them before any login. */
@Public()
@Controller('console/assets')
export class ConsoleAssetsController {
  @Get(':file')
  // Revalidated on each load, so a new version is picked up at once.
  @Header('cache-control', 'no-cache')
  asset(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const asset = ASSETS.get(file);
    if (!asset) throw new NotFoundException(`no console asset ${file}`);
    reply.type(asset.type);
    return asset.body;
  }
}
