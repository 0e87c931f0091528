export type Environment = Record<string, string | undefined>;

const VARIABLE_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Secrets live in the environment; the file names them as `${VAR}`. */
export function resolveReferences(value: unknown, path: PropertyKey[], env: Environment, problems: string[]): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE_REFERENCE, (_match, name: string) => {
      const found = env[name];
      if (found === undefined)
        problems.push(`${formatPath(path)}: references \${${name}}, which is not set in the environment`);
      return found ?? '';
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => resolveReferences(item, [...path, i], env, problems));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, resolveReferences(item, [...path, key], env, problems)]),
    );
  }
  return value;
}

export function formatPath(path: PropertyKey[]): string {
  return path.reduce<string>((acc, segment) => joinKey(acc, segment), '');
}

export function joinKey(prefix: string, segment: PropertyKey): string {
  if (typeof segment === 'number') return `${prefix}[${segment}]`;
  return prefix ? `${prefix}.${String(segment)}` : String(segment);
}

/** The process's environment, where `${VAR}` references of the admin API's entries are read when they enter the catalog. */
export function processEnvironment(): Environment {
  return process.env;
}
