import { isOwnVariable } from '../config/env-overrides';
import { formatPath } from '../config/variable-references';
import { OutboundUrlBlockedError, type OutboundUrlPolicy } from '../security/outbound-url-policy';
import { mapSecrets, REDACTED } from './catalog-secrets';
import type { CatalogKind } from './catalog-store.interface';

const REFERENCES = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * What an entry given over the network may not ask for, though the file may: Switchboard's own
 * variables handed to an upstream (`${DATABASE_URL}` in a header, as a stdio server's `env`, as an
 * LLM's `api_key_env`), and files read on this machine (an external agent's client certificate).
 * A rule needs a name, by which the API and the audit trail know it.
 */
export function entryProblems(kind: CatalogKind, body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  visitStrings(body, [], (value, path) => {
    for (const [, name] of value.matchAll(REFERENCES))
      if (isOwnVariable(name)) problems.push(`${formatPath(path)}: \${${name}} ${OWN_VARIABLE}`);
  });
  if (kind === 'mcp_servers' && Array.isArray(body.env))
    body.env.forEach((name, index) => {
      if (typeof name === 'string' && isOwnVariable(name)) problems.push(`env[${index}]: ${name} ${OWN_VARIABLE}`);
    });
  const executor = body.executor as { api_key_env?: unknown } | undefined;
  if (kind === 'agents' && typeof executor?.api_key_env === 'string' && isOwnVariable(executor.api_key_env))
    problems.push(`executor.api_key_env: ${executor.api_key_env} ${OWN_VARIABLE}`);
  if (kind === 'external_agents' && body.tls !== undefined)
    problems.push('tls: client certificates are read from files on this machine: configure such an agent in the file');
  if (kind === 'rules' && body.name === undefined)
    problems.push('name: a rule created through the admin API needs a name');
  return problems;
}

const OWN_VARIABLE = "is one of Switchboard's own settings, not a secret to hand to an upstream";

/** A secret left redacted where there is no stored one to keep. */
export function holdsRedacted(kind: CatalogKind, body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  mapSecrets(kind, body, (value, path) => {
    if (value === REDACTED)
      problems.push(`${path}: give the secret ("${REDACTED}" stands for a stored one, and there is none)`);
    return value;
  });
  return problems;
}

/** The URLs a resolved entry makes Switchboard call: servers, agents, models, token endpoints. */
export function outboundUrls(resolved: object): { path: string; url: string }[] {
  const urls: { path: string; url: string }[] = [];
  visitStrings(resolved, [], (value, path) => {
    const key = String(path.at(-1));
    if (/(^|_)(url|endpoint|issuer|uri)$/.test(key) && /^https?:/i.test(value))
      urls.push({ path: formatPath(path), url: value });
  });
  return urls;
}

/** Why `url` may not be called now; undefined when it may, or when its name does not resolve yet (it is checked again at each call). */
export async function blockedReasonOf(policy: OutboundUrlPolicy, url: string): Promise<string | undefined> {
  try {
    await policy.resolve(url);
    return undefined;
  } catch (error) {
    return error instanceof OutboundUrlBlockedError ? error.reason : undefined;
  }
}

function visitStrings(node: unknown, path: PropertyKey[], visit: (value: string, path: PropertyKey[]) => void): void {
  if (typeof node === 'string') visit(node, path);
  else if (Array.isArray(node)) node.forEach((item, index) => visitStrings(item, [...path, index], visit));
  else if (node && typeof node === 'object')
    for (const [key, value] of Object.entries(node)) visitStrings(value, [...path, key], visit);
}
