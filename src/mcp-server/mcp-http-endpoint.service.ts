import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  AuthInfo,
  createMcpHandler,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isJSONRPCNotification,
  McpHttpHandler,
  McpRequestContext,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callContextFor } from '../a2a-server/call-context';
import type { SwitchboardConfig } from '../config/config.schema';
import { principalOf } from '../security/principal';
import { AgentToolCall } from './agent-tool-call';
import { clientGoneSignal, sendFetchResponse, toFetchRequest } from './fetch-exchange';
import type { McpCaller } from './mcp-caller';
import { MCP_SESSION_STORE, McpSessionStore } from './mcp-session-store.interface';
import { RequestOriginPolicy, requestOriginPolicy } from './request-origin.policy';
import { SwitchboardMcpServerFactory } from './switchboard-mcp-server.factory';

const SESSION_HEADER = 'mcp-session-id';

/**
 * Streamable HTTP at `/mcp` for both protocol eras, with nothing kept in the process between requests:
 *
 * - 2026-07-28 clients are stateless by design: the SDK's handler answers each request.
 * - 2025-era clients get a session (`Mcp-Session-Id`) at `initialize`; the session lives in the
 *   shared session store and every request is then served by the SDK's stateless fallback for
 *   that era, so any replica answers any request of any session. A `notifications/cancelled` finds its running task
 *   through the store. What this gives up: the GET stream (405, as for stateless servers) and
 *   server-to-client requests, which would need the replica holding the stream.
 */
@Injectable()
export class McpHttpEndpoint implements OnApplicationShutdown {
  private readonly logger = new Logger(McpHttpEndpoint.name);
  private readonly policy: RequestOriginPolicy;
  /** Both eras: the SDK tells them apart and serves 2025-era requests statelessly. */
  private readonly handler: McpHttpHandler;

  constructor(
    factory: SwitchboardMcpServerFactory,
    private readonly agentCalls: AgentToolCall,
    @Inject(MCP_SESSION_STORE) private readonly sessions: McpSessionStore,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.policy = requestOriginPolicy({ server: config.get('server', { infer: true }), mcp_server: config.get('mcp_server', { infer: true }) });
    const create = (ctx: McpRequestContext) => factory.create(callerOf(ctx.authInfo));
    const onerror = (error: Error) => this.logger.warn({ err: error.message }, 'MCP request failed');
    this.handler = createMcpHandler(create, { legacy: 'stateless', responseMode: 'auto', onerror });
  }

  /** Serves one request; Fastify has parsed the body already. */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const principal = principalOf(request);
    const caller: McpCaller = { owner: principal?.name ?? '', context: callContextFor(request, request.headers, false) };
    const response = await this.respond(toFetchRequest(request, clientGoneSignal(reply)), request.body, caller);
    await sendFetchResponse(reply, response);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handler.close();
  }

  private async respond(request: Request, body: unknown, caller: McpCaller): Promise<Response> {
    const rejected = hostHeaderValidationResponse(request, this.policy.hosts) ?? originValidationResponse(request, this.policy.origins);
    if (rejected) {
      this.logger.warn({ host: request.headers.get('host'), origin: request.headers.get('origin') }, 'rejected an MCP request from a host or origin not allowed');
      return rejected;
    }
    // Only 2025-era clients send a session id, and they open one with `initialize`: everything else
    // (2026-07-28 requests, and 2025-era requests of clients that keep no session) is the SDK's alone.
    if (request.headers.has(SESSION_HEADER)) return this.inSession(request, body, caller);
    const response = await this.handler.fetch(request, { parsedBody: body, authInfo: authInfoFor(caller) });
    if (request.method === 'POST' && isInitializeRequest(body) && response.ok) {
      response.headers.set(SESSION_HEADER, await this.sessions.open(caller.owner));
    }
    return response;
  }

  /** A request of a 2025-era session from the shared store, served statelessly. */
  private async inSession(request: Request, body: unknown, caller: McpCaller): Promise<Response> {
    const sessionId = request.headers.get(SESSION_HEADER)!;
    // A session of another caller is as unknown as an expired one.
    if ((await this.sessions.owner(sessionId)) !== caller.owner) return sessionNotFound();
    if (request.method === 'DELETE') {
      await this.sessions.close(sessionId);
      return new Response(null, { status: 200 });
    }
    const inSession = { ...caller, sessionId };
    for (const requestId of cancelledRequestIds(body)) await this.agentCalls.cancelTracked(requestId, inSession);
    return this.handler.fetch(request, { parsedBody: body, authInfo: authInfoFor(inSession) });
  }
}

/** The caller rides to the per-request server factory in the SDK's pass-through `authInfo`. */
function authInfoFor(caller: McpCaller): AuthInfo {
  return { token: '', clientId: caller.owner, scopes: [], extra: { caller } };
}

function callerOf(authInfo: AuthInfo | undefined): McpCaller {
  return authInfo?.extra?.caller as McpCaller;
}

/** The spec's answer to an unknown or ended session: 404, and the client starts a new one. */
function sessionNotFound(): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });
}

/** Request ids named by `notifications/cancelled` messages in a POST body (one message or a batch). */
function cancelledRequestIds(body: unknown): string[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages
    .filter((message) => isJSONRPCNotification(message) && message.method === 'notifications/cancelled')
    .map((message) => (message as { params?: { requestId?: unknown } }).params?.requestId)
    .filter((id): id is string | number => typeof id === 'string' || typeof id === 'number')
    .map(String);
}
