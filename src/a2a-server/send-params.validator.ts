import { z } from 'zod';

/**
 * What a v1.0 send must look like on the wire. The SDK reads params with protobuf's lenient
 * `fromJSON`, which turns a wrong-typed field into a default and would start a turn on garbage;
 * checking first gives the caller -32602 (or HTTP 400) naming the field instead.
 */
const partSchema = z
  .looseObject({
    text: z.string().optional(),
    raw: z.string().optional(),
    url: z.string().optional(),
    data: z.unknown().optional(),
    mediaType: z.string().optional(),
    filename: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .refine((part) => ['text', 'raw', 'url', 'data'].filter((key) => part[key] !== undefined).length === 1, {
    message: 'a part needs exactly one of text, raw, url or data',
  });

const sendParamsSchema = z.looseObject({
  message: z.looseObject({
    messageId: z.string().min(1),
    role: z.union([z.enum(['ROLE_USER', 'ROLE_AGENT']), z.literal(1), z.literal(2)]),
    parts: z.array(partSchema).min(1),
    taskId: z.string().optional(),
    contextId: z.string().optional(),
    referenceTaskIds: z.array(z.string()).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  }),
  configuration: z
    .looseObject({
      acceptedOutputModes: z.array(z.string()).optional(),
      historyLength: z.number().int().min(0).optional(),
      returnImmediately: z.boolean().optional(),
    })
    .optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** The problem with a v1.0 SendMessage / SendStreamingMessage params object, or undefined if none. */
export function sendParamsProblem(params: unknown, prefix: string): string | undefined {
  const result = sendParamsSchema.safeParse(params);
  if (result.success) return undefined;
  const [issue] = result.error.issues;
  const path = [prefix, ...issue.path].reduce<string>(
    (key, part) => (typeof part === 'number' ? `${key}[${part}]` : key ? `${key}.${String(part)}` : String(part)),
    '',
  );
  return `${path}: ${issue.message}`;
}
