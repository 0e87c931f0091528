import { HttpStatus, Injectable } from '@nestjs/common';
import { CallerAuthenticator } from '../security/caller-authenticator';

/** Why a login was refused, as the form shows it, with the status it is answered with. */
export interface LoginRefusal {
  status: HttpStatus.BAD_REQUEST | HttpStatus.UNAUTHORIZED | HttpStatus.FORBIDDEN;
  message: string;
}

/** Who may log in to the console: holders of an API key with operator rights. */
@Injectable()
export class ConsoleLogins {
  constructor(private readonly callers: CallerAuthenticator) {}

  /** False when the service runs without keys: the console is open then, as every route is. */
  get required(): boolean {
    return this.callers.required;
  }

  /** Why `key` may not open the console; undefined when it may. */
  refusal(key: unknown): LoginRefusal | undefined {
    if (typeof key !== 'string' || key.trim() === '')
      return { status: HttpStatus.BAD_REQUEST, message: 'Enter an API key.' };
    // The check the auth guard makes of the cookie on every later request.
    const verdict = this.callers.authenticateSession(key.trim());
    if (verdict.kind !== 'valid') return { status: HttpStatus.UNAUTHORIZED, message: 'That API key is not valid.' };
    if (!verdict.principal.scope.admin) {
      return {
        status: HttpStatus.FORBIDDEN,
        message: `The key "${verdict.principal.name}" has no operator rights: it needs admin = true, on the key or on an auth rule matching it.`,
      };
    }
    return undefined;
  }
}
