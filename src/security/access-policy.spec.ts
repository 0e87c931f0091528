import type { AccessGrant, AccessRule } from '../config/auth.schema';
import { LiveCatalog } from '../config/live-catalog';
import { AccessPolicy, type PolicySubject } from './access-policy';

const key = (name: string, grant?: AccessGrant): PolicySubject => ({ kind: 'key', name, grant });
const token = (principal: string, claims: Record<string, unknown> = {}): PolicySubject => ({
  kind: 'token',
  principal,
  claims,
});
const catalogWith = (rules: AccessRule[]) =>
  new LiveCatalog({
    mcp_servers: [],
    external_agents: [],
    agents: [],
    keys: [],
    rules: rules.map((rule, index) => ({ ...rule, name: `rule-${index + 1}` })),
  });
const policy = (rules: AccessRule[], default_access: 'all' | 'none' = 'all') =>
  new AccessPolicy(catalogWith(rules), default_access);

describe('AccessPolicy', () => {
  it('leaves a caller no rule matches everything, or nothing with default_access = "none"', () => {
    const rules: AccessRule[] = [{ keys: ['ci'], tools: ['web_fetch'] }];
    expect(policy(rules).scopeOf(key('ops')).allowsAgent('coder')).toBe(true);
    expect(policy(rules, 'none').scopeOf(key('ops')).allowsAgent('coder')).toBe(false);
    expect(policy(rules, 'none').scopeOf(token('alice@idp')).allowsTool('web_fetch')).toBe(false);
  });

  it("matches keys by name pattern, and never a token; a key's own lists count as a rule of its own", () => {
    const rules: AccessRule[] = [{ keys: ['ci-*'], agents: ['coder'] }];
    expect(policy(rules).scopeOf(key('ci-nightly')).allowsAgent('coder')).toBe(true);
    expect(policy(rules).scopeOf(key('ci-nightly')).allowsAgent('reviewer')).toBe(false);
    expect(policy(rules, 'none').scopeOf(token('ci-nightly')).allowsAgent('coder')).toBe(false);
    const own = policy(rules).scopeOf(key('ci-nightly', { agents: ['reviewer'] }));
    expect([own.allowsAgent('coder'), own.allowsAgent('reviewer'), own.allowsAgent('writer')]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('matches tokens by principal and by claims: every condition given, one value of each', () => {
    const rules: AccessRule[] = [
      { subjects: ['*@idp.example'], claims: { groups: ['eng', 'ops'], tid: ['acme'] }, tools: ['mcp_github_*'] },
    ];
    const allowed = (claims: Record<string, unknown>, principal = 'alice@idp.example') =>
      policy(rules, 'none').scopeOf(token(principal, claims)).allowsTool('mcp_github_open');
    expect(allowed({ groups: ['sales', 'ops'], tid: 'acme' })).toBe(true);
    expect(allowed({ groups: 'eng', tid: 'acme' })).toBe(true);
    expect(allowed({ groups: ['sales'], tid: 'acme' })).toBe(false);
    expect(allowed({ groups: ['eng'] })).toBe(false);
    expect(allowed({ groups: ['eng'], tid: 'acme' }, 'alice@other.example')).toBe(false);
  });

  it('reads scope as space-separated words, other string claims whole', () => {
    const rules: AccessRule[] = [{ claims: { scope: ['agents:coder'] }, agents: ['coder'] }];
    expect(
      policy(rules, 'none')
        .scopeOf(token('a', { scope: 'openid agents:coder' }))
        .allowsAgent('coder'),
    ).toBe(true);
    expect(
      policy(rules, 'none')
        .scopeOf(token('a', { scope: 'openid agents:coder-x' }))
        .allowsAgent('coder'),
    ).toBe(false);
    const named: AccessRule[] = [{ claims: { name: ['Ada Lovelace'] }, agents: ['coder'] }];
    expect(
      policy(named, 'none')
        .scopeOf(token('a', { name: 'Ada Lovelace' }))
        .allowsAgent('coder'),
    ).toBe(true);
  });

  it('unions what every matching rule grants; a rule leaving a kind unset grants all of it', () => {
    const rules: AccessRule[] = [
      { claims: { groups: ['eng'] }, tools: ['mcp_github_*'], agents: [] },
      { claims: { groups: ['oncall'] }, tools: ['mcp_pager_*'] },
    ];
    const both = policy(rules).scopeOf(token('a', { groups: ['eng', 'oncall'] }));
    expect([
      both.allowsTool('mcp_github_a'),
      both.allowsTool('mcp_pager_a'),
      both.allowsTool('mcp_fs_a'),
      both.allowsAgent('coder'),
    ]).toEqual([true, true, false, true]);
    const eng = policy(rules).scopeOf(token('a', { groups: ['eng'] }));
    expect([eng.allowsTool('mcp_pager_a'), eng.allowsAgent('coder')]).toEqual([false, false]);
  });

  it('lets a rule without conditions match every caller', () => {
    const everyone = policy([{ agents: ['echo'] }], 'none');
    expect(everyone.scopeOf(key('any')).allowsAgent('echo')).toBe(true);
    expect(everyone.scopeOf(token('any')).allowsAgent('echo')).toBe(true);
    expect(everyone.scopeOf(token('any')).allowsAgent('coder')).toBe(false);
  });

  it('grants operator rights from a key entry or a matching rule, for keys and tokens, without changing their reach', () => {
    const rules: AccessRule[] = [
      { subjects: ['ops@idp'], admin: true },
      { keys: ['ci'], agents: ['coder'] },
    ];
    expect(policy(rules).scopeOf(key('ops', { admin: true })).admin).toBe(true);
    expect(policy(rules).scopeOf(key('dev')).admin).toBe(false);
    expect(policy(rules).scopeOf(token('ops@idp')).admin).toBe(true);
    expect(policy(rules).scopeOf(token('ops@idp')).allowsAgent('anything')).toBe(true);
    expect(policy(rules, 'none').scopeOf(token('ops@idp')).allowsAgent('anything')).toBe(false);
    const ci = policy(rules).scopeOf(key('ci', { admin: true }));
    expect([ci.admin, ci.allowsAgent('coder'), ci.allowsAgent('other')]).toEqual([true, true, false]);
  });

  it('confines a caller its key entry or a matching rule marks metrics_only to /metrics, whatever else it matches', () => {
    const rules: AccessRule[] = [{ agents: ['echo'] }, { subjects: ['scraper@idp'], metrics_only: true }];
    const scraper = policy(rules).scopeOf(key('prometheus', { metrics_only: true }));
    expect([scraper.metricsOnly, scraper.admin, scraper.allowsAgent('echo'), scraper.allowsTool('web_fetch')]).toEqual([
      true,
      false,
      false,
      false,
    ]);
    const token = policy(rules).scopeOf({ kind: 'token', principal: 'scraper@idp', claims: {} });
    expect([token.metricsOnly, token.allowsAgent('echo')]).toEqual([true, false]);
    const others = [policy(rules).scopeOf(key('ops')), policy(rules).scopeOf(key('ops', { admin: true }))];
    expect(others.map((scope) => [scope.metricsOnly, scope.allowsAgent('echo')])).toEqual([
      [false, true],
      [false, true],
    ]);
  });

  it("follows the catalog's rules: a rule added narrows, a rule removed widens again", () => {
    const catalog = catalogWith([]);
    const live = new AccessPolicy(catalog, 'all');
    expect(live.scopeOf(key('ci')).allowsTool('mcp_fs_write_file')).toBe(true);
    const narrowing = { ...catalog.current, rules: [{ name: 'ci-reads', keys: ['ci'], tools: ['mcp_fs_read_*'] }] };
    catalog.replace(narrowing, (error) => {
      throw error;
    });
    expect(live.scopeOf(key('ci')).allowsTool('mcp_fs_write_file')).toBe(false);
    expect(live.scopeOf(key('ci')).allowsTool('mcp_fs_read_file')).toBe(true);
    catalog.replace({ ...narrowing, rules: [] }, (error) => {
      throw error;
    });
    expect(live.scopeOf(key('ci')).allowsTool('mcp_fs_write_file')).toBe(true);
  });
});
