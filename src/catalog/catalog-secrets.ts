import { formatPath } from '../config/variable-references';
import type { CatalogKind } from './catalog-store.interface';
import { SecretCipher } from './secret-cipher';

/** What the API shows for a secret given by value; sent back unchanged in a PUT, it keeps the stored one. */
export const REDACTED = '********';

/** Where each kind's entries carry credentials for upstreams (`*` is any key). */
const SECRET_PATHS: Record<CatalogKind, readonly (readonly string[])[]> = {
  mcp_servers: [
    ['transport', 'headers', '*'],
    ['transport', 'auth', 'client_secret'],
  ],
  external_agents: [
    ['auth', 'token'],
    ['auth', 'value'],
    ['auth', 'client_secret'],
    ['headers', '*'],
  ],
  agents: [['executor', 'api_key']],
  keys: [],
  rules: [],
};

const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/;

/** A value naming its secret in the environment (`Bearer ${TOKEN}`) holds none itself. */
export function isReference(value: string): boolean {
  return REFERENCE.test(value);
}

type SecretVisitor = (value: string, path: string) => string;

/** `body` with `visit`'s answer in place of each string at a secret path of `kind`; `body` itself is left as it is. */
export function mapSecrets(
  kind: CatalogKind,
  body: Record<string, unknown>,
  visit: SecretVisitor,
): Record<string, unknown> {
  let result = body;
  for (const pattern of SECRET_PATHS[kind]) result = mapAt(result, pattern, [], visit) as Record<string, unknown>;
  return result;
}

function mapAt(node: unknown, pattern: readonly string[], path: string[], visit: SecretVisitor): unknown {
  if (pattern.length === 0) return typeof node === 'string' ? visit(node, formatPath(path)) : node;
  if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
  const [head, ...rest] = pattern;
  const record = node as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(record) : head in record ? [head] : [];
  if (keys.length === 0) return node;
  const copy = { ...record };
  for (const key of keys) copy[key] = mapAt(record[key], rest, [...path, key], visit);
  return copy;
}

/** The body as the API and the audit trail show it: secrets given by value redacted, references as they are. */
export function redactSecrets(kind: CatalogKind, body: Record<string, unknown>): Record<string, unknown> {
  return mapSecrets(kind, body, (value) => (isReference(value) ? value : REDACTED));
}

/** The body as stored: secrets given by value sealed. Without a cipher, such a secret is a problem. */
export function sealSecrets(
  kind: CatalogKind,
  body: Record<string, unknown>,
  cipher: SecretCipher | undefined,
  problems: string[],
): Record<string, unknown> {
  return mapSecrets(kind, body, (value, path) => {
    if (isReference(value) || SecretCipher.isSealed(value)) return value;
    if (cipher) return cipher.seal(value);
    problems.push(
      `${path}: a secret given by value needs SWITCHBOARD_CATALOG_KEY (catalog.encryption_key) to be stored encrypted; or give it as a \${VAR} reference`,
    );
    return value;
  });
}

/** The stored body with its sealed secrets opened; `prefix` starts the problems' paths. */
export function openSecrets(
  kind: CatalogKind,
  body: Record<string, unknown>,
  cipher: SecretCipher | undefined,
  prefix: string,
  problems: string[],
): Record<string, unknown> {
  return mapSecrets(kind, body, (value, path) => {
    if (!SecretCipher.isSealed(value)) return value;
    if (!cipher) {
      problems.push(
        `${prefix}.${path}: is stored encrypted, and SWITCHBOARD_CATALOG_KEY (catalog.encryption_key) is not set`,
      );
      return value;
    }
    try {
      return cipher.open(value);
    } catch {
      problems.push(
        `${prefix}.${path}: cannot be decrypted: SWITCHBOARD_CATALOG_KEY is not the key it was stored with`,
      );
      return value;
    }
  });
}

/** `next`, with each secret it leaves redacted taken from `stored` (where that holds one at the same path). */
export function keepRedactedSecrets(
  kind: CatalogKind,
  next: Record<string, unknown>,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  const storedValues = new Map<string, string>();
  mapSecrets(kind, stored, (value, path) => {
    storedValues.set(path, value);
    return value;
  });
  return mapSecrets(kind, next, (value, path) => (value === REDACTED ? (storedValues.get(path) ?? value) : value));
}
