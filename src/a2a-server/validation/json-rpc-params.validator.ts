import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { z } from 'zod';
import type { JsonRpcError } from '../../common/json-rpc-envelope';
import { LEGACY_TASK_PARAMS_SCHEMAS } from './legacy-task-params.schemas';
import { SEND_PARAMS_SCHEMAS } from './send-params.schemas';
import { issueText } from './send-params.validator';

/** Params checked before the SDK's lenient parsing, per protocol version and method. */
const SCHEMAS: Record<'v1' | 'v03', Record<string, z.ZodType>> = {
  v1: { SendMessage: SEND_PARAMS_SCHEMAS.v1, SendStreamingMessage: SEND_PARAMS_SCHEMAS.v1 },
  v03: {
    'message/send': SEND_PARAMS_SCHEMAS.v03,
    'message/stream': SEND_PARAMS_SCHEMAS.v03,
    ...LEGACY_TASK_PARAMS_SCHEMAS,
  },
};

/** Any v1.0 method may name a tenant, which the SDK sets on the call context as it comes. */
const V1_ANY_METHOD = z.looseObject({ tenant: z.string().optional() }).optional();

/** The problem with a JSON-RPC request's params, as `params.field: what is wrong`, or undefined if none. */
export function jsonRpcParamsProblem(legacy: boolean, method: string, params: unknown): string | undefined {
  const schemas = SCHEMAS[legacy ? 'v03' : 'v1'];
  const schema = Object.hasOwn(schemas, method) ? schemas[method] : legacy ? undefined : V1_ANY_METHOD;
  const result = schema?.safeParse(params);
  return result && !result.success ? issueText(result.error.issues[0], 'params') : undefined;
}

/**
 * -32601 for a method the version does not have, or undefined. Checked before the params, which the
 * SDK checks first (answering an unknown method without params -32602).
 */
export function unknownMethodError(legacy: boolean, method: string): JsonRpcError | undefined {
  // The SDK's method tables are plain objects: `toString` would be in them.
  const known = !(method in Object.prototype) && (legacy ? isLegacyJsonRpcMethod(method) : isV1JsonRpcMethod(method));
  return known ? undefined : { code: A2A_ERROR_CODE.METHOD_NOT_FOUND, message: `Method not found: ${method}` };
}
