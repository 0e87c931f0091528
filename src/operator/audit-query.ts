import { BadRequestException } from '@nestjs/common';
import type { AuditQuery } from '../audit/audit-store.interface';
import { opaquePageToken, readPageToken } from './page-token';

const PAGE_SIZE = 50;

/** The audit list's query string as Fastify gives it: a repeated parameter is an array. */
export type AuditListParams = Partial<Record<'actor' | 'action' | 'target' | 'since' | 'pageToken', unknown>>;

/** The audit list's query, read from its query string; a 400 naming the parameter that is wrong. */
export function auditQueryOf(params: AuditListParams): AuditQuery {
  const query: AuditQuery = { limit: PAGE_SIZE };
  for (const name of ['actor', 'action', 'target'] as const) {
    const value = single(params, name);
    if (value !== undefined) query[name] = value;
  }
  const since = single(params, 'since');
  if (since !== undefined) query.since = isoTime(since);
  const pageToken = single(params, 'pageToken');
  if (pageToken !== undefined) query.beforeId = decodeAuditPageToken(pageToken);
  return query;
}

/** Where the next page starts (the last entry's id), as opaque text. */
export function encodeAuditPageToken(beforeId: string): string {
  return opaquePageToken({ before: beforeId });
}

function decodeAuditPageToken(token: string): string {
  return readPageToken(token, ({ before }) =>
    typeof before === 'string' && /^[0-9]{1,18}$/.test(before) ? before : undefined,
  );
}

function single(params: AuditListParams, name: keyof AuditListParams): string | undefined {
  const value = params[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new BadRequestException(`${name} must be given once`);
  return value;
}

/** An ISO 8601 date or date and time (`2026-12-01`, `2026-12-01T08:00:00Z`). */
function isoTime(text: string): Date {
  const time = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}($|T)/.test(text) || Number.isNaN(time))
    throw new BadRequestException(`since must be an ISO 8601 time (2026-12-01T08:00:00Z), not "${text}"`);
  return new Date(time);
}
