import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { principalOf } from '../security/principal';

/** Asked by orchestrators and Prometheus every few seconds: their lines are debug, not info. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const RECORD = Symbol('switchboard.accessRecord');

/** What a request's line is built from, once it is written: the Fastify request, and what the protocol layers noted. */
interface AccessRecord {
  request: FastifyRequest;
  /** The agent the request addressed (an A2A endpoint's, also the primary one's). */
  agent?: string;
  /** The protocol's answer (a JSON-RPC response, a stream's first event), whose task id the line gives for a send that made a task. */
  answer?: unknown;
}

type RecordedRequest = IncomingMessage & { [RECORD]?: AccessRecord };

/** What a request's line says besides method, URL, status and time; each only where known. */
export interface AccessFields {
  /** The API key's name. */
  principal?: string;
  /** The client's address (from `X-Forwarded-For` under `server.trust_proxy`). */
  clientAddress?: string;
  /** The route template (`/a2a/agents/:name`). */
  route?: string;
  /** The JSON-RPC method: A2A's (`SendMessage`, `message/send`) or MCP's (`tools/call`). */
  rpcMethod?: string;
  agent?: string;
  taskId?: string;
}

/**
 * Keeps each request's record from its start, for its line. Registered only when request lines are
 * logged: otherwise nothing of this runs per request.
 */
export function recordRequests(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    (request.raw as RecordedRequest)[RECORD] = { request };
    done();
  });
}

/** Tells the request's line what a protocol layer learned; nothing when request lines are not logged. */
export function noteForAccessLog(request: FastifyRequest, facts: Omit<AccessRecord, 'request'>): void {
  const record = (request.raw as RecordedRequest)[RECORD];
  if (record) Object.assign(record, facts);
}

export function isProbe(raw: IncomingMessage): boolean {
  const url = (raw as IncomingMessage & { originalUrl?: string }).originalUrl ?? raw.url ?? '';
  const query = url.indexOf('?');
  return PROBE_PATHS.has(query < 0 ? url : url.slice(0, query));
}

/** The line's fields, worked out as it is written (never for a line not written). */
export function accessFields(raw: IncomingMessage): AccessFields {
  const record = (raw as RecordedRequest)[RECORD];
  if (!record) return {};
  const { request, agent, answer } = record;
  const rpc = jsonRpcOf(request.body);
  return {
    principal: principalOf(request)?.name,
    clientAddress: request.ip,
    route: request.routeOptions.url,
    rpcMethod: rpc?.method,
    agent,
    taskId: taskIdOf(rpc?.params) ?? taskIdOf(resultOf(answer)),
  };
}

type Fields = Record<string, unknown> | undefined;

function jsonRpcOf(body: unknown): { method: string; params: Fields } | undefined {
  const message = body as Fields;
  if (typeof message?.method !== 'string' || message.jsonrpc === undefined) return undefined;
  return { method: message.method, params: message.params as Fields };
}

function resultOf(answer: unknown): Fields {
  const result = (answer as Fields)?.result as Fields;
  // v1.0 wraps what it answers (`{task}`, `{message}`, `{statusUpdate}`, ...); v0.3 gives it bare.
  if (!result || result.kind !== undefined || result.id !== undefined) return result;
  const wrapped = Object.values(result)[0];
  return typeof wrapped === 'object' && wrapped !== null ? (wrapped as Fields) : undefined;
}

/**
 * The task a request's parameters or a result name: `taskId` (messages, events, push configs),
 * else `id` (a task; a GetTask or CancelTask request), else the message's.
 */
function taskIdOf(fields: Fields): string | undefined {
  if (!fields) return undefined;
  const id = fields.taskId ?? (fields.message as Fields)?.taskId ?? (fields.kind === 'message' ? undefined : fields.id);
  return typeof id === 'string' ? id : undefined;
}
