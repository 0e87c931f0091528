/**
 * Postgres text and jsonb hold neither U+0000 nor lone surrogates (which have no UTF-8 form), so a
 * task or key carrying one could never be stored or found.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * True when any of the given keys could not be stored, so that lookups by them find nothing. Keys
 * are typed strings but come from the wire, where a repeated query parameter is an array.
 */
export function hasUnstorableText(...values: unknown[]): boolean {
  return values.some((value) => value !== undefined && (typeof value !== 'string' || !isStorableText(value)));
}

/**
 * Where the first unstorable string (or object key) in a value is, as a path from `root`; walks
 * iteratively so that deeply nested values cannot overflow the stack. Every send is checked, and
 * almost all are clean: the paths are built only for a value that has such a string.
 */
export function pathOfUnstorableText(value: unknown, root: string): string | undefined {
  return holdsUnstorableText(value) ? firstUnstorablePath(value, root) : undefined;
}

function holdsUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current === 'string') {
      if (!isStorableText(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) pending.push(item);
    } else if (typeof current === 'object' && current !== null && !Buffer.isBuffer(current)) {
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        if (!isStorableText(key)) return true;
        pending.push((current as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

function firstUnstorablePath(value: unknown, root: string): string | undefined {
  const pending: [unknown, string][] = [[value, root]];
  while (pending.length > 0) {
    const [current, path] = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push([item, `${path}[${index}]`]));
    } else if (typeof current === 'object' && current !== null && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (!isStorableText(key)) return path;
        pending.push([item, path ? `${path}.${key}` : key]);
      }
    }
  }
  return undefined;
}
