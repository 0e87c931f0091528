import { BadRequestException } from '@nestjs/common';
import type { AuditQuery } from '../audit/audit-store.interface';

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
  return Buffer.from(JSON.stringify({ before: beforeId })).toString('base64url');
}

function decodeAuditPageToken(token: string): string {
  try {
    const { before } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { before: unknown };
    if (typeof before === 'string' && /^[0-9]{1,18}$/.test(before)) return before;
  } catch {
    // Falls through to the refusal: the token is not one this API gave.
  }
  throw new BadRequestException('pageToken is not a page token this API gave (use nextPageToken as it came)');
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
