import { randomUUID } from 'node:crypto';
import { isJsonObject } from '../common/json-object';

/**
 * The seed systems' clients (PocketPaw's and OpenFang's curl bodies) speak an early A2A dialect:
 * `tasks/send`, parts tagged `type` instead of `kind`, no `messageId`, `sessionId`, snake_case
 * options, file parts with `uri` or `bytes_data` beside or inside `file`. This rewrites such a
 * JSON-RPC request into v0.3 so the SDK's v0.3 handler takes it; a request already in v0.3 form
 * passes unchanged, and is refused without a `messageId` as v0.3 requires.
 */
const METHOD_ALIASES: Record<string, string> = {
  'tasks/send': 'message/send',
  'tasks/sendSubscribe': 'message/stream',
};

type Json = Record<string, unknown>;

export function normalizeSeedRequest(body: unknown): unknown {
  if (!isJsonObject(body) || typeof body.method !== 'string') return body;
  const method = METHOD_ALIASES[body.method] ?? body.method;
  return { ...body, method, params: isJsonObject(body.params) ? normalizeParams(body.params) : body.params };
}

/** Whether `body` is in the seeds' dialect (their methods, or a message with parts tagged `type`): its client reads answers as the seeds wrote them (withSeedAnswer). */
export function isSeedCall(body: unknown): boolean {
  if (!isJsonObject(body) || typeof body.method !== 'string') return false;
  return (
    body.method in METHOD_ALIASES ||
    (isJsonObject(body.params) && isJsonObject(body.params.message) && isSeedMessage(body.params.message))
  );
}

/**
 * A task as the seeds' clients read it. They take the answer from the status message (PocketPaw's
 * `result.status.message`), where Switchboard puts it in the artifacts alone, as the spec has it: a
 * completed task with artifacts and no status message is given one made of their parts.
 */
export function withSeedAnswer(result: unknown): unknown {
  if (!isJsonObject(result) || result.kind !== 'task' || !isJsonObject(result.status)) return result;
  const { status, artifacts } = result;
  if (status.state !== 'completed' || status.message !== undefined || !Array.isArray(artifacts)) return result;
  const parts = artifacts.flatMap((artifact: unknown) =>
    isJsonObject(artifact) && Array.isArray(artifact.parts) ? artifact.parts : [],
  );
  if (parts.length === 0) return result;
  const message = {
    kind: 'message',
    role: 'agent',
    messageId: `${String(result.id)}-answer`,
    taskId: result.id,
    contextId: result.contextId,
    parts,
  };
  return { ...result, status: { ...status, message } };
}

function normalizeParams(params: Json): Json {
  const { sessionId, history_length, configuration, message, ...rest } = params;
  const normalized: Json = { ...rest };
  if (history_length !== undefined && rest.historyLength === undefined) normalized.historyLength = history_length;
  if (isJsonObject(configuration)) normalized.configuration = normalizeConfiguration(configuration);
  else if (configuration !== undefined) normalized.configuration = configuration;
  if (isJsonObject(message)) normalized.message = normalizeMessage(message, sessionId);
  else if (message !== undefined) normalized.message = message;
  return normalized;
}

function normalizeConfiguration({ accepted_output_modes, history_length, ...rest }: Json): Json {
  return {
    ...rest,
    ...(accepted_output_modes !== undefined &&
      rest.acceptedOutputModes === undefined && { acceptedOutputModes: accepted_output_modes }),
    ...(history_length !== undefined && rest.historyLength === undefined && { historyLength: history_length }),
  };
}

function normalizeMessage(message: Json, sessionId: unknown): Json {
  return {
    kind: 'message',
    ...(isSeedMessage(message) && { messageId: randomUUID() }),
    ...(typeof sessionId === 'string' && { contextId: sessionId }),
    ...message,
    parts: Array.isArray(message.parts) ? message.parts.map(normalizePart) : message.parts,
  };
}

/** A message in the seeds' dialect: its parts are tagged `type`. Only such a message may come without a `messageId`. */
function isSeedMessage(message: Json): boolean {
  return Array.isArray(message.parts) && message.parts.some(isSeedPart);
}

function isSeedPart(part: unknown): part is Json {
  return isJsonObject(part) && part.kind === undefined && typeof part.type === 'string';
}

/** `{type: "text", text}` becomes `{kind: "text", text}`; the seed's file and data parts get v0.3's shape. */
function normalizePart(part: unknown): unknown {
  if (!isSeedPart(part)) return part;
  const { type, mime_type, name, data, uri, bytes_data, file, ...rest } = part;
  if (type === 'file')
    return {
      ...rest,
      kind: 'file',
      file: seedFile(isJsonObject(file) ? { name, mime_type, ...file } : { name, mime_type, data, uri, bytes_data }),
    };
  if (type === 'data')
    return { ...rest, kind: 'data', data, ...(mime_type !== undefined && { metadata: { mimeType: mime_type } }) };
  return { ...rest, kind: type, ...(name !== undefined && { name }), ...(data !== undefined && { data }) };
}

/**
 * A seed's file as v0.3's: a `uri` (PocketPaw) is a file by reference, `bytes_data` (PocketPaw) or
 * `data` (OpenFang) base64 bytes. Only the fields given are set: the SDK tells the two by which is present.
 */
function seedFile(file: Json): Json {
  const { name, mimeType = file.mime_type, uri } = file;
  const bytes = file.bytes ?? file.bytes_data ?? file.data;
  return Object.fromEntries(Object.entries({ name, mimeType, uri, bytes }).filter(([, value]) => value !== undefined));
}
