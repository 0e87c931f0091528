import type { AccessGrant } from '../config/auth.schema';
import { NamePatterns } from '../common/name-patterns';

/**
 * What a caller may reach: tool names (as `/mcp` lists them) and agent names, each as a list of
 * patterns where `*` matches any run of characters, and whether it has operator rights (`admin`).
 * No list means everything: keys configured without `tools` or `agents`, and callers of a service
 * that runs without keys. Operator rights are only ever granted, never implied. A scrape credential
 * (`metrics_only`) reaches `/metrics` alone.
 */
export class AccessScope {
  static readonly unrestricted = new AccessScope(undefined, undefined, false);
  static readonly none = AccessScope.of({ tools: [], agents: [] });
  /** A scrape credential's: no tool, no agent, no operator right, and no route but `/metrics`. */
  static readonly metrics = new AccessScope(new NamePatterns([]), new NamePatterns([]), false, true);

  /**
   * The same for scopes that reach the same tools and agents (operator rights aside), whichever
   * key or token they came from: what `/mcp` lists to them is the same.
   */
  readonly reach: string;

  private constructor(
    private readonly tools: NamePatterns | undefined,
    private readonly agents: NamePatterns | undefined,
    /** The admin API and the console (`admin = true` on a key or a rule). */
    readonly admin: boolean,
    /** `/metrics` and nothing else (`metrics_only = true` on a key or a rule); every other route refuses the caller. */
    readonly metricsOnly = false,
  ) {
    this.reach = metricsOnly ? 'metrics only' : `tools ${tools?.source ?? 'all'}, agents ${agents?.source ?? 'all'}`;
  }

  static of(grant: AccessGrant): AccessScope {
    if (grant.metrics_only) return AccessScope.metrics;
    if (!grant.tools && !grant.agents && !grant.admin) return AccessScope.unrestricted;
    return new AccessScope(
      grant.tools && new NamePatterns(grant.tools),
      grant.agents && new NamePatterns(grant.agents),
      grant.admin ?? false,
    );
  }

  /**
   * Everything any of `grants` allows: a kind is whole when one of them leaves it unset. A grant of
   * `admin` alone adds operator rights and nothing else; with only such grants, `reach` (the scope
   * the caller would have without them) gives the tools and agents. A `metrics_only` grant is the
   * one that takes away: it confines the caller to `/metrics` whatever the others grant.
   */
  static union(grants: readonly AccessGrant[], reach: AccessScope = AccessScope.unrestricted): AccessScope {
    if (grants.some((grant) => grant.metrics_only)) return AccessScope.metrics;
    const admin = grants.some((grant) => grant.admin === true);
    const reaching = grants.filter((grant) => !isAdminOnly(grant));
    if (reaching.length === 0) return new AccessScope(reach.tools, reach.agents, admin);
    const merged = (kind: 'tools' | 'agents') =>
      reaching.some((grant) => !grant[kind]) ? undefined : reaching.flatMap((grant) => grant[kind]!);
    return AccessScope.of({ tools: merged('tools'), agents: merged('agents'), admin });
  }

  allowsTool(name: string): boolean {
    return this.tools?.allows(name) ?? true;
  }

  allowsAgent(name: string): boolean {
    return this.agents?.allows(name) ?? true;
  }
}

/** A grant that speaks of operator rights and of nothing else. */
function isAdminOnly(grant: AccessGrant): boolean {
  return grant.admin !== undefined && !grant.tools && !grant.agents;
}

/** Why a caller was refused the admin API or the console, and which settings grant it. */
export function adminRefusal(caller: string): string {
  return `The caller "${caller}" has no operator rights: set admin = true on its key in [[auth.api_keys]], or on an [[auth.rules]] entry matching it (keys, subjects or claims).`;
}

/** Why a scrape credential was refused a route other than `/metrics`, and which settings made it one. */
export function metricsOnlyRefusal(caller: string): string {
  return `The caller "${caller}" may read /metrics only (metrics_only): it is a scrape credential (SWITCHBOARD_METRICS_KEYS, or metrics_only = true on its key in [[auth.api_keys]] or on an [[auth.rules]] entry matching it).`;
}

/** Why a caller was refused an agent, and where its reach is configured. */
export function agentRefusal(caller: string, agent: string): string {
  return `The caller "${caller}" may not reach agent "${agent}" (see auth.rules, and its key's "agents" in auth.api_keys).`;
}
