import { HttpStatus, Injectable } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { CallerAuthenticator } from '../security/caller-authenticator';

/** Why a login was refused, as the form shows it, with the status it is answered with and the reason the audit trail gives. */
export interface LoginRefusal {
  status: HttpStatus.BAD_REQUEST | HttpStatus.UNAUTHORIZED | HttpStatus.FORBIDDEN;
  message: string;
  reason: 'no key' | 'invalid key' | 'no operator rights';
}

/** A login's outcome, with who tried: the key's name when it is known (never the key itself). */
interface LoginOutcome {
  actor: string;
  refusal?: LoginRefusal;
}

/** Who may log in to the console: holders of an API key with operator rights. Every attempt is audited. */
@Injectable()
export class ConsoleLogins {
  constructor(
    private readonly callers: CallerAuthenticator,
    private readonly audit: AuditTrail,
  ) {}

  /** False when the service runs without keys: the console is open then, as every route is. */
  get required(): boolean {
    return this.callers.required;
  }

  /** Why `key` may not open the console; undefined when it may. `ip` is the client's, for the audit trail. */
  async logIn(key: unknown, ip: string): Promise<LoginRefusal | undefined> {
    const { actor, refusal } = this.check(key);
    await this.audit.record({
      actor,
      action: refusal ? 'console.login_refused' : 'console.login',
      target: 'console',
      detail: { ip, ...(refusal && { reason: refusal.reason }) },
    });
    return refusal;
  }

  private check(key: unknown): LoginOutcome {
    if (typeof key !== 'string' || key.trim() === '')
      return {
        actor: 'anonymous',
        refusal: { status: HttpStatus.BAD_REQUEST, message: 'Enter an API key.', reason: 'no key' },
      };
    // The check the auth guard makes of the cookie on every later request.
    const verdict = this.callers.authenticateSession(key.trim());
    if (verdict.kind !== 'valid')
      return {
        actor: 'anonymous',
        refusal: { status: HttpStatus.UNAUTHORIZED, message: 'That API key is not valid.', reason: 'invalid key' },
      };
    const { name, scope } = verdict.principal;
    if (!scope.admin)
      return {
        actor: name,
        refusal: {
          status: HttpStatus.FORBIDDEN,
          message: `The key "${name}" has no operator rights: it needs admin = true, on the key or on an auth rule matching it.`,
          reason: 'no operator rights',
        },
      };
    return { actor: name };
  }
}
