import { CONSOLE_SESSION_COOKIE } from '../security/console-session';

const ATTRIBUTES = 'Path=/; HttpOnly; SameSite=Strict';

/** `Set-Cookie` for a login: the key itself, for the browser's session only, sent over https only when the login came over https. */
export function sessionCookie(key: string, secure: boolean): string {
  return `${CONSOLE_SESSION_COOKIE}=${encodeURIComponent(key)}; ${ATTRIBUTES}${secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` for a logout. */
export function endedSessionCookie(secure: boolean): string {
  return `${CONSOLE_SESSION_COOKIE}=; ${ATTRIBUTES}; Max-Age=0${secure ? '; Secure' : ''}`;
}
