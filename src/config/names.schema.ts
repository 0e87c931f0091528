import { z } from 'zod';

/** Names of agents, servers and keys: they appear in URLs, tool names and URIs. */
export const nameSchema = z
  .string()
  .min(1)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
    'must start with a letter or digit and contain only letters, digits, "_" or "-"',
  );

/** A name as part of a tool name, by the seeds' rule: hyphens become underscores (`code-reviewer` -> `code_reviewer`). */
export function toolNamePart(name: string): string {
  return name.replace(/-/g, '_');
}

export const headerNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name');

export const envVarNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');
