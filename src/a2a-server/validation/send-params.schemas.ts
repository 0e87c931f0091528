import { z } from 'zod';
import { LEGACY_REST_SEND_MESSAGE_REQUEST, SEND_MESSAGE_REQUEST, withJsonFieldNames } from './json-field-names';

/**
 * What a send must look like on the wire, per dialect. The SDK reads params leniently (protobuf's
 * `fromJSON` turns a wrong-typed field into a default or a string; the v0.3 converters pass unknown
 * part kinds through), which would start a turn on garbage. Checking first gives the caller -32602
 * (or HTTP 400) naming the field instead.
 */

const metadata = z.record(z.string(), z.unknown());
const strings = z.array(z.string());

/** Message fields that v1.0 and v0.3 spell alike. */
const sharedMessageFields = {
  taskId: z.string().optional(),
  contextId: z.string().optional(),
  referenceTaskIds: strings.optional(),
  extensions: strings.optional(),
  metadata: metadata.optional(),
};

/** Send options shared by the versions, with the one each spells its own way (returnImmediately, blocking). */
function configuration(flag: 'returnImmediately' | 'blocking') {
  return z
    .looseObject({
      acceptedOutputModes: strings.optional(),
      historyLength: z.number().int().min(0).optional(),
      [flag]: z.boolean().optional(),
    })
    .optional();
}

function exactlyOne(value: Record<string, unknown>, keys: string[]): boolean {
  return keys.filter((key) => value[key] !== undefined).length === 1;
}

// ---- v1.0: JSON-RPC and HTTP+JSON ----------------------------------------------------------------

const v1Part = z
  .looseObject({
    text: z.string().optional(),
    raw: z.string().optional(),
    url: z.string().optional(),
    data: z.unknown().optional(),
    mediaType: z.string().optional(),
    filename: z.string().optional(),
    metadata: metadata.optional(),
  })
  .refine((part) => exactlyOne(part, ['text', 'raw', 'url', 'data']), {
    message: 'a part needs exactly one of text, raw, url or data',
  });

const v1Role = z.union([z.enum(['ROLE_USER', 'ROLE_AGENT']), z.literal(1), z.literal(2)]);

const v1SendParams = z.looseObject({
  message: z.looseObject({
    messageId: z.string().min(1),
    role: v1Role,
    parts: z.array(v1Part).min(1),
    ...sharedMessageFields,
  }),
  configuration: configuration('returnImmediately'),
  metadata: metadata.optional(),
  tenant: z.string().optional(),
});

// ---- v0.3 JSON-RPC (and the seeds' dialect once rewritten into it) -------------------------------

const v03File = z.union([
  z.looseObject({ bytes: z.string(), name: z.string().optional(), mimeType: z.string().optional() }),
  z.looseObject({ uri: z.string(), name: z.string().optional(), mimeType: z.string().optional() }),
]);

const v03Part = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('text'), text: z.string(), metadata: metadata.optional() }),
  z.looseObject({ kind: z.literal('file'), file: v03File, metadata: metadata.optional() }),
  z.looseObject({ kind: z.literal('data'), data: metadata, metadata: metadata.optional() }),
]);

const v03SendParams = z.looseObject({
  message: z.looseObject({
    kind: z.literal('message').optional(),
    messageId: z.string().min(1),
    role: z.enum(['user', 'agent']),
    parts: z.array(v03Part).min(1),
    ...sharedMessageFields,
  }),
  configuration: configuration('blocking'),
  metadata: metadata.optional(),
});

// ---- v0.3 HTTP+JSON: the v0.3 protobuf's JSON ----------------------------------------------------

const v03RestFile = z
  .looseObject({
    fileWithUri: z.string().optional(),
    fileWithBytes: z.string().optional(),
    file_with_uri: z.string().optional(),
    file_with_bytes: z.string().optional(),
    mimeType: z.string().optional(),
    name: z.string().optional(),
  })
  .refine((file) => exactlyOne(file, ['fileWithUri', 'fileWithBytes', 'file_with_uri', 'file_with_bytes']), {
    message: 'a file needs exactly one of fileWithUri or fileWithBytes',
  });

const v03RestPart = z
  .looseObject({
    text: z.string().optional(),
    file: v03RestFile.optional(),
    data: z.looseObject({ data: metadata }).optional(),
    metadata: metadata.optional(),
  })
  .refine((part) => exactlyOne(part, ['text', 'file', 'data']), {
    message: 'a part needs exactly one of text, file or data',
  });

const v03RestMessage = z.looseObject({
  messageId: z.string().min(1),
  role: v1Role,
  content: z.array(v03RestPart).min(1),
  ...sharedMessageFields,
});

const v03RestSendParams = z
  .looseObject({
    message: v03RestMessage.optional(),
    request: v03RestMessage.optional(),
    configuration: configuration('blocking'),
    metadata: metadata.optional(),
  })
  .refine((params) => exactlyOne(params, ['message', 'request']), {
    message: 'needs exactly one of message or request',
  });

/** The protocol forms a send arrives in. */
export type SendDialect = 'v1' | 'v03' | 'v03-rest';

export const SEND_PARAMS_SCHEMAS: Record<SendDialect, z.ZodType> = {
  v1: z.preprocess((params) => withJsonFieldNames(params, SEND_MESSAGE_REQUEST), v1SendParams),
  v03: v03SendParams,
  'v03-rest': z.preprocess((params) => withJsonFieldNames(params, LEGACY_REST_SEND_MESSAGE_REQUEST), v03RestSendParams),
};
