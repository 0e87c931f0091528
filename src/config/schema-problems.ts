import type { z } from 'zod';
import { formatPath, joinKey } from './variable-references';

/**
 * A schema's issues as problems naming their keys (`mcp_servers[0].transport.url: Invalid URL`),
 * under `prefix`; `sourceOf` adds where a key's value came from (` (from PORT)`).
 */
export function schemaProblems(
  issues: readonly z.core.$ZodIssue[],
  prefix: PropertyKey[] = [],
  sourceOf: (key: string) => string = () => '',
): string[] {
  return issues.flatMap((issue) => {
    const key = formatPath([...prefix, ...issue.path]);
    if (issue.code === 'unrecognized_keys') return issue.keys.map((unknown) => `${joinKey(key, unknown)}: unknown key`);
    return [`${key || '<root>'}${sourceOf(key)}: ${issue.message}`];
  });
}
