import { BadRequestException } from '@nestjs/common';
import type { ListPosition } from '../tasks';

/** The operator list's page token: where the next page starts, as opaque text. */
export function encodePageToken(position: ListPosition): string {
  return Buffer.from(JSON.stringify({ t: position.time.toISOString(), id: position.id })).toString('base64url');
}

export function decodePageToken(token: string): ListPosition {
  try {
    const { t, id } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { t: unknown; id: unknown };
    if (typeof t === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(t)))
      return { time: new Date(t), id };
  } catch {
    // Falls through to the refusal: the token is not one this API gave.
  }
  throw new BadRequestException('pageToken is not a page token this API gave (use nextPageToken as it came)');
}
