import { BadRequestException, NotFoundException } from '@nestjs/common';
import { CATALOG_KINDS } from '../catalog/catalog-kinds';
import type { CatalogKind } from '../catalog/catalog-store.interface';

/** The kind an admin API path names (`mcp-servers`); 404 for a path that names none. */
export function catalogKindOf(path: string): CatalogKind {
  const spec = CATALOG_KINDS.find((candidate) => candidate.path === path);
  if (!spec) throw new NotFoundException(`no such admin API resource: /api/admin/${path}`);
  return spec.kind;
}

/** An `If-Match` header's version (`"3"`, `3`, `W/"3"`); undefined when absent or `*` (any version). */
export function ifMatchVersion(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(header);
  if (!match)
    throw new BadRequestException(`If-Match must name one version, as the ETag gives it ("3"), not ${header}`);
  return Number(match[1]);
}

export function etagOf(version: number): string {
  return `"${version}"`;
}
