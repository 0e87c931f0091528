import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  AuthInfo,
  createMcpHandler,
  hostHeaderValidationResponse,
  isInitializeRequest,
  isJSONRPCNotification,
  isLegacyRequest,
  legacyStatelessFallback,
  LegacyHttpHandler,
  McpHttpHandler,
  McpRequestContext,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callContextFor } from '../a2a-server/call-context';
import type { SwitchboardConfig } from '../config/config.schema';
import { principalOf } from '../security/principal';
import { AgentToolCall } from './agent-tool-call';
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
 *   shared session store and every request is then served by a fresh, stateless server, so any
 *   replica answers any request of any session. A `notifications/cancelled` finds its running task
 *   through the store. What this gives up: the GET stream (405, as for stateless servers) and
 *   server-to-client requests, which would need the replica holding the stream.
 */
@Injectable()
export class McpHttpEndpoint implements OnApplicationShutdown {
  private readonly logger = new Logger(McpHttpEndpoint.name);
  private readonly policy: RequestOriginPolicy;
  private readonly modern: McpHttpHandler;
  private readonly legacy: LegacyHttpHandler;
  private readonly serve: ReturnType<typeof toNodeHandler>;

  constructor(
    factory: SwitchboardMcpServerFactory,
    private readonly agentCalls: AgentToolCall,
    @Inject(MCP_SESSION_STORE) private readonly sessions: McpSessionStore,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    this.policy = requestOriginPolicy({ server: config.get('server', { infer: true }), mcp_server: config.get('mcp_server', { infer: true }) });
    const create = (ctx: McpRequestContext) => factory.create(callerOf(ctx.authInfo));
    const onerror = (error: Error) => this.logger.warn({ err: error.message }, 'MCP request failed');
    this.modern = createMcpHandler(create, { legacy: 'reject', responseMode: 'auto', onerror });
    this.legacy = legacyStatelessFallback(create, onerror);
    this.serve = toNodeHandler({ fetch: (request, options) => this.fetch(request, options?.parsedBody, callerOf(options?.authInfo)) }, { onerror });
  }

  /** Serves one request on the raw Node objects; Fastify has parsed the body already. */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const principal = principalOf(request);
    const caller: McpCaller = { owner: principal?.name ?? '', context: callContextFor(request, request.headers, false) };
    const raw = Object.assign(request.raw, { auth: authInfoFor(caller) });
    reply.hijack();
    await this.serve(raw, reply.raw, request.body);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.modern.close();
  }

  private async fetch(request: Request, body: unknown, caller: McpCaller): Promise<Response> {
    const rejected = hostHeaderValidationResponse(request, this.policy.hosts) ?? originValidationResponse(request, this.policy.origins);
    if (rejected) {
      this.logger.warn({ host: request.headers.get('host'), origin: request.headers.get('origin') }, 'rejected an MCP request from a host or origin not allowed');
      return rejected;
    }
    if (!(await isLegacyRequest(request, body))) return this.modern.fetch(request, { parsedBody: body, authInfo: authInfoFor(caller) });
    return this.legacySession(request, body, caller);
  }

  /** The 2025-era leg: sessions from the shared store, each request served statelessly. */
  private async legacySession(request: Request, body: unknown, caller: McpCaller): Promise<Response> {
    const sessionId = request.headers.get(SESSION_HEADER) ?? undefined;
    if (!sessionId) {
      const response = await this.legacy(request, { parsedBody: body, authInfo: authInfoFor(caller) });
      if (request.method === 'POST' && isInitializeRequest(body) && response.ok) {
        response.headers.set(SESSION_HEADER, await this.sessions.open(caller.owner));
      }
      return response;
    }
    // A session of another caller is as unknown as an expired one.
    if ((await this.sessions.owner(sessionId)) !== caller.owner) return sessionNotFound();
    if (request.method === 'DELETE') {
      await this.sessions.close(sessionId);
      return new Response(null, { status: 200 });
    }
    const inSession = { ...caller, sessionId };
    for (const requestId of cancelledRequestIds(body)) await this.agentCalls.cancelTracked(requestId, inSession);
    return this.legacy(request, { parsedBody: body, authInfo: authInfoFor(inSession) });
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
