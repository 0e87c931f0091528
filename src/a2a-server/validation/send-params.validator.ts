import type { z } from 'zod';
import { SEND_PARAMS_SCHEMAS, type SendDialect } from './send-params.schemas';

export type { SendDialect } from './send-params.schemas';

/** The problem with a send's params in `dialect`, as `field: what is wrong`, or undefined if none. */
export function sendParamsProblem(dialect: SendDialect, params: unknown, prefix: string): string | undefined {
  const result = SEND_PARAMS_SCHEMAS[dialect].safeParse(params);
  return result.success ? undefined : issueText(result.error.issues[0], prefix);
}

export function issueText(issue: z.core.$ZodIssue, prefix: string): string {
  const path = [prefix, ...issue.path].reduce<string>(
    (key, part) => (typeof part === 'number' ? `${key}[${part}]` : key ? `${key}.${String(part)}` : String(part)),
    '',
  );
  return path ? `${path}: ${issue.message}` : issue.message;
}
