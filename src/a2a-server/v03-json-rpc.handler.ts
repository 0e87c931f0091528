import { LEGACY_METHOD_MESSAGE_SEND } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { isJsonObject } from '../common/json-object';

/**
 * The SDK's v0.3 JSON-RPC handler, with `message/send` waiting for its turn unless `blocking` is
 * false, as the 0.3 servers did. The SDK's compat layer reads a configuration without `blocking` as
 * `blocking: false` (and a send without a configuration as blocking): v0.3 clients that name only
 * their output modes would get `submitted` and no answer.
 */
export class V03JsonRpcHandler extends LegacyJsonRpcTransportHandler {
  override handle(
    requestBody: string | Record<string, unknown>,
    context: ServerCallContext,
  ): ReturnType<LegacyJsonRpcTransportHandler['handle']> {
    return super.handle(typeof requestBody === 'string' ? requestBody : blockingUnlessFalse(requestBody), context);
  }
}

function blockingUnlessFalse(body: Record<string, unknown>): Record<string, unknown> {
  if (body.method !== LEGACY_METHOD_MESSAGE_SEND || !isJsonObject(body.params)) return body;
  const { configuration } = body.params;
  if (!isJsonObject(configuration) || configuration.blocking !== undefined) return body;
  return { ...body, params: { ...body.params, configuration: { ...configuration, blocking: true } } };
}
