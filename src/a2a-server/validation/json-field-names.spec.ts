import { SEND_MESSAGE_REQUEST, withJsonFieldNames } from './json-field-names';

describe('withJsonFieldNames', () => {
  it('names a send\u2019s fields and those of its nested messages by their JSON names', () => {
    const params = {
      message: { message_id: 'm', context_id: 'c', parts: [{ text: 'x', media_type: 'text/plain' }] },
      configuration: {
        accepted_output_modes: ['text/plain'],
        task_push_notification_config: { task_id: 't', url: 'u' },
      },
    };
    expect(withJsonFieldNames(params, SEND_MESSAGE_REQUEST)).toEqual({
      message: { messageId: 'm', contextId: 'c', parts: [{ text: 'x', mediaType: 'text/plain' }] },
      configuration: { acceptedOutputModes: ['text/plain'], taskPushNotificationConfig: { taskId: 't', url: 'u' } },
    });
  });

  it('keeps the keys of free-form JSON and of fields it does not know as they are', () => {
    const params = {
      metadata: { snake_key: 1 },
      message: { parts: [{ data: { snake_key: 2 } }] },
      other: { snake_key: 3 },
    };
    expect(withJsonFieldNames(params, SEND_MESSAGE_REQUEST)).toEqual(params);
  });

  it('lets the JSON name win when a client gives both, and leaves non-objects alone', () => {
    expect(withJsonFieldNames({ messageId: 'json', message_id: 'proto' }, {})).toEqual({ messageId: 'json' });
    for (const value of [null, 'text', 5, [{ a_b: 1 }]]) expect(withJsonFieldNames(value, {})).toEqual(value);
  });

  it('never takes a `__proto__` key for the prototype', () => {
    const renamed = withJsonFieldNames(JSON.parse('{"__proto__": {"polluted": true}}'), {}) as Record<string, unknown>;
    expect(renamed.polluted).toBeUndefined();
  });
});
