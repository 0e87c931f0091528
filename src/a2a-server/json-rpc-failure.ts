import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { JsonRpcTransportHandler } from '@a2a-js/sdk/server';
import type { JsonRpcError, JsonRpcId } from '../common/json-rpc-envelope';

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: JsonRpcId;
  error: JsonRpcError;
}

/**
 * A call to the SDK's JSON-RPC handler (v1.0, or v0.3 for `legacy`) that failed, thrown for the
 * route's exception filter to answer in its protocol's form. `cause`: the typed error behind the
 * JSON-RPC error, when known (the SDK's mapping hides ServiceUnavailableError and
 * TaskStreamInterruptedError), else the error itself.
 */
export class JsonRpcFailure {
  private constructor(
    readonly response: JsonRpcErrorResponse,
    readonly cause: unknown,
  ) {}

  /** An error response the SDK's handler or a check before it made. */
  static answered(response: JsonRpcErrorResponse, cause: unknown = response.error): JsonRpcFailure {
    return new JsonRpcFailure(response, cause);
  }

  /** An error thrown while the call was handled, mapped as the SDK maps it in the call's dialect. */
  static thrown(error: unknown, id: JsonRpcId, legacy: boolean): JsonRpcFailure {
    return new JsonRpcFailure({ jsonrpc: '2.0', id, error: jsonRpcErrorOf(error, legacy) }, error);
  }
}

/** The JSON-RPC error the SDK's handler of the dialect answers for `error`. */
export function jsonRpcErrorOf(error: unknown, legacy: boolean): JsonRpcError {
  return legacy
    ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
    : JsonRpcTransportHandler.mapToJSONRPCError(error);
}
