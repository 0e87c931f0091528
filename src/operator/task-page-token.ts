import type { ListPosition } from '../tasks';
import { opaquePageToken, readPageToken } from './page-token';

/** The operator task list's page token. */
export function encodePageToken(position: ListPosition): string {
  return opaquePageToken({ t: position.time.toISOString(), id: position.id });
}

export function decodePageToken(token: string): ListPosition {
  return readPageToken(token, ({ t, id }) =>
    typeof t === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(t))
      ? { time: new Date(t), id }
      : undefined,
  );
}
