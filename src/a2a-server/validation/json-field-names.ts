/**
 * Protobuf's JSON mapping has parsers take a field by its JSON name (`messageId`) or its proto name
 * (`message_id`). The SDK's parsers do, but read HTTP+JSON query parameters by JSON name only,
 * and our checks are written in JSON names: this gives both the JSON names. Where a client gives
 * both names, the JSON name wins, as in the SDK's parsers.
 */

/** The fields of a proto message whose values are messages (or lists of them) with fields of their own. */
export interface MessageShape {
  readonly [field: string]: MessageShape;
}

/**
 * A v1.0 SendMessageRequest's nested messages. Other fields are scalars or free-form JSON
 * (`metadata`, a part's `data`) whose keys are the client's and stay as they are; and the nesting a
 * client can make us walk is no deeper than this.
 */
export const SEND_MESSAGE_REQUEST: MessageShape = {
  message: { parts: {} },
  configuration: { taskPushNotificationConfig: { authentication: {} } },
};

/** A v0.3 HTTP+JSON SendMessageRequest's nested messages: its message is `message` or `request`, with parts in `content`. */
export const LEGACY_REST_SEND_MESSAGE_REQUEST: MessageShape = {
  message: { content: { file: {} } },
  request: { content: { file: {} } },
  configuration: { pushNotification: { authentication: {} } },
};

/** `value` with its fields, and those of its nested messages as `shape` has them, named by their JSON names. */
export function withJsonFieldNames(value: unknown, shape: MessageShape): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const object = value as Record<string, unknown>;
  const fields: [string, unknown][] = [];
  for (const [key, field] of Object.entries(object)) {
    const name = jsonName(key);
    if (name !== key && Object.hasOwn(object, name)) continue;
    const nested = Object.hasOwn(shape, name) ? shape[name] : undefined;
    fields.push([
      name,
      !nested
        ? field
        : Array.isArray(field)
          ? field.map((item) => withJsonFieldNames(item, nested))
          : withJsonFieldNames(field, nested),
    ]);
  }
  // fromEntries defines each key as a property of its own: a `__proto__` key is never the prototype.
  return Object.fromEntries(fields);
}

/** Protobuf's JSON name of a field: `message_id` is `messageId`. */
function jsonName(key: string): string {
  if (!key.includes('_')) return key;
  return key.replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());
}
