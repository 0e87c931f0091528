import { BadRequestException } from '@nestjs/common';

/** A list's page token: where its next page starts, as opaque text. */
export function opaquePageToken(position: Record<string, string>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position `opaquePageToken` wrote, as `read` takes it from the token's fields; a 400 for any other token. */
export function readPageToken<T>(token: string, read: (fields: Record<string, unknown>) => T | undefined): T {
  let position: T | undefined;
  try {
    position = read(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>);
  } catch {
    // Not JSON: not a token this API gave either.
  }
  if (position === undefined)
    throw new BadRequestException('pageToken is not a page token this API gave (use nextPageToken as it came)');
  return position;
}
