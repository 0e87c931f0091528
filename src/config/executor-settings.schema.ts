import { z } from 'zod';
import { nameSchema } from './names.schema';

export const echoExecutorSettingsSchema = z.strictObject({
  type: z.literal('echo'),
  /** Pause before answering and between artifact chunks, so streaming and cancellation can be seen. */
  delay_ms: z.number().int().min(0).max(600_000).default(0),
  /** The echoed text is streamed as this many artifact chunks. */
  chunks: z.number().int().min(1).max(1_000).default(1),
});

const scriptStateSchema = z.enum([
  'working',
  'input-required',
  'auth-required',
  'completed',
  'failed',
  'rejected',
  'canceled',
]);

export const scriptStepSchema = z.union([
  z.strictObject({ status: scriptStateSchema, text: z.string().optional() }),
  z.strictObject({
    artifact: z.strictObject({
      text: z.string(),
      name: z.string().optional(),
      /** Adds to the previous artifact instead of starting a new one. */
      append: z.boolean().default(false),
      last_chunk: z.boolean().default(false),
    }),
  }),
  /** Answers with a plain message: the turn creates no task. Only valid as the only step. */
  z.strictObject({ message: z.string() }),
  z.strictObject({ delay_ms: z.number().int().min(0).max(600_000) }),
  /** Throws, as a buggy agent would: the task must still end `failed`. */
  z.strictObject({ throw: z.string() }),
]);

export const scriptExecutorSettingsSchema = z
  .strictObject({
    type: z.literal('script'),
    steps: z.array(scriptStepSchema).min(1),
    /** Played in place of `steps` on a turn that continues a task (the answer to its question); `steps` again when unset. */
    reply_steps: z
      .array(
        scriptStepSchema.refine(
          (step) => !('message' in step),
          'a reply continues a task: it cannot answer with a message',
        ),
      )
      .min(1)
      .optional(),
  })
  .refine((settings) => !settings.steps.some((step) => 'message' in step) || settings.steps.length === 1, {
    message: 'a "message" step answers without a task, so it must be the only step',
    path: ['steps'],
  });

/** An agent backed by any OpenAI-compatible chat-completions endpoint, calling tools through the pipeline. */
export const llmExecutorSettingsSchema = z.strictObject({
  type: z.literal('llm'),
  /** The API root, e.g. `https://api.openai.com/v1`; requests go to `{base_url}/chat/completions`. */
  base_url: z.url(),
  model: z.string().min(1),
  /** Name of the environment variable holding the API key; the config loader reads it into `api_key`. */
  api_key_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  api_key: z.string().min(1).optional(),
  system_prompt: z.string().default(''),
  /** Model calls per turn at most: each tool round is one. */
  max_iterations: z.number().int().min(1).max(100).default(10),
  /** How long one model call may take, streaming included. */
  request_timeout_secs: z.number().positive().default(120),
  temperature: z.number().min(0).max(2).optional(),
});

/** A gateway agent: its turns are forwarded to an external A2A agent, and the remote task followed to its end. */
export const a2aExecutorSettingsSchema = z.strictObject({
  type: z.literal('a2a'),
  /** The external agent (`[[a2a.external_agents]]` or an ARDF manifest's id). */
  agent: nameSchema,
});

export const executorSettingsSchema = z.discriminatedUnion('type', [
  echoExecutorSettingsSchema,
  scriptExecutorSettingsSchema,
  llmExecutorSettingsSchema,
  a2aExecutorSettingsSchema,
]);

export type EchoExecutorSettings = z.infer<typeof echoExecutorSettingsSchema>;
export type ScriptExecutorSettings = z.infer<typeof scriptExecutorSettingsSchema>;
export type ScriptStep = z.infer<typeof scriptStepSchema>;
export type LlmExecutorSettings = z.infer<typeof llmExecutorSettingsSchema>;
export type A2aExecutorSettings = z.infer<typeof a2aExecutorSettingsSchema>;
export type ExecutorSettings = z.infer<typeof executorSettingsSchema>;
