import { isDeepStrictEqual } from 'node:util';
import type { AccessGrant, AccessRule, AuthConfig } from '../config/auth.schema';
import { NamePatterns } from '../common/name-patterns';
import type { LiveCatalog } from '../config/live-catalog';
import { AccessScope } from './access-scope';

/** Who a rule is matched against: an API key (by name, with its own lists), or an access token's principal and claims. */
export type PolicySubject =
  | { kind: 'key'; name: string; grant?: AccessGrant }
  | { kind: 'token'; principal: string; claims: Readonly<Record<string, unknown>> };

/**
 * One evaluation for keys and tokens (`auth.rules`): a caller reaches what every rule it matches
 * grants, together with its key's own `tools` and `agents`. A caller nothing matches reaches
 * everything, or nothing with `default_access = "none"`; grants of `admin` alone leave that as it is.
 * Operator rights (`admin`) come from any rule or key entry that sets them; `metrics_only` on any of
 * them confines the caller to `/metrics`. The rules are the live catalog's, rebuilt when they change.
 */
export class AccessPolicy {
  private rules: MatchingRule[];

  constructor(
    catalog: LiveCatalog,
    private readonly defaultAccess: AuthConfig['default_access'],
  ) {
    this.rules = catalog.current.rules.map((rule) => new MatchingRule(rule));
    catalog.onChange((next, previous) => {
      if (!isDeepStrictEqual(next.rules, previous.rules)) this.rules = next.rules.map((rule) => new MatchingRule(rule));
    });
  }

  scopeOf(subject: PolicySubject): AccessScope {
    const grants: AccessGrant[] = this.rules.filter((rule) => rule.matches(subject)).map((rule) => rule.grant);
    if (
      subject.kind === 'key' &&
      subject.grant &&
      (subject.grant.tools || subject.grant.agents || subject.grant.admin !== undefined || subject.grant.metrics_only)
    )
      grants.push(subject.grant);
    const byDefault = this.defaultAccess === 'all' ? AccessScope.unrestricted : AccessScope.none;
    return grants.length === 0 ? byDefault : AccessScope.union(grants, byDefault);
  }
}

class MatchingRule {
  readonly grant: AccessGrant;
  private readonly keys?: NamePatterns;
  private readonly subjects?: NamePatterns;
  private readonly claims: [string, NamePatterns][];

  constructor(rule: AccessRule) {
    this.grant = { tools: rule.tools, agents: rule.agents, admin: rule.admin, metrics_only: rule.metrics_only };
    this.keys = rule.keys && new NamePatterns(rule.keys);
    this.subjects = rule.subjects && new NamePatterns(rule.subjects);
    this.claims = Object.entries(rule.claims ?? {}).map(([claim, values]) => [claim, new NamePatterns(values)]);
  }

  matches(subject: PolicySubject): boolean {
    if (subject.kind === 'key')
      return !this.subjects && this.claims.length === 0 && (this.keys?.allows(subject.name) ?? true);
    if (this.keys) return false;
    if (this.subjects && !this.subjects.allows(subject.principal)) return false;
    return this.claims.every(([claim, values]) =>
      claimValues(claim, subject.claims[claim]).some((value) => values.allows(value)),
    );
  }
}

/** A claim's values as words to match: a list's items, `scope`'s space-separated words, a string or number itself. */
function claimValues(claim: string, value: unknown): string[] {
  if (Array.isArray(value)) return value.filter(isScalar).map(String);
  if (!isScalar(value)) return [];
  return claim === 'scope' && typeof value === 'string' ? value.split(' ').filter(Boolean) : [String(value)];
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
