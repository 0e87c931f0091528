import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  AuthInfo,
  createMcpHandler,
  hostHeaderValidationResponse,
  InitializeRequestParams,
  McpHttpHandler,
  McpRequestContext,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { baseUrlOf } from '../../a2a-server/base-url';
import { callContextFor } from '../../a2a-server/call-context';
import type { SwitchboardConfig } from '../../config/config.schema';
import { MetricsService, Sample } from '../../metrics/metrics.service';
import { MCP_CATALOG_SOURCE, McpCatalogSource } from '../../mcp-client/mcp-catalog-source.interface';
import { AccessScope } from '../../security/access-scope';
import { CallerAuthenticator } from '../../security/caller-authenticator';
import { onBehalfOf } from '../../security/oauth/on-behalf-of';
import { principalOf } from '../../security/principal';
import { scopedCatalog } from '../scoped-catalog';
import { isNotificationMessage, isRequestMessage } from '../json-rpc-shapes';
import { CallerRequests } from '../sessions/caller-requests';
import { CancelledRequests } from '../sessions/cancelled-requests';
import type { CancelWatch } from '../../tasks';
import { clientGoneSignal, isEventStream, sendFetchResponse } from './fetch-exchange';
import { forwardedRequest } from './forwarded-request';
import { authInfoOf, callerOf, serverNeedsOf, type McpCaller, type ServerNeeds } from '../mcp-caller';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/mcp-session-store.interface';
import { RequestOriginPolicy, requestOriginPolicy } from './request-origin.policy';
import { refusedLegacyRequest } from './legacy-request-checks';
import { MCP_EVENT_STORE, McpEventStore } from '../stores/mcp-event-store.interface';
import { resumedStream, serveResumably } from '../sessions/resumable-streams';
import { followListenedTasks, isListen, ListenRequest, withResourceSubscriptions } from '../bridge/listened-tasks';
import { fromSeedEnvelope } from './seed-envelope';
import { SessionEventStream, sessionEventStream } from '../sessions/session-event-stream';
import { followSessionSubscriptions, LocalSubscriptionChanges } from '../sessions/session-subscriptions';
import { OfferedLists } from '../server/offered-lists';
import { sessionMessagesOf, takeSessionAnswer } from '../mcp-tasks/mcp-task-methods';
import { McpTasks } from '../mcp-tasks/mcp-tasks.service';
import { SubagentBridge } from '../bridge/subagent-bridge';
import { SwitchboardMcpServerFactory } from '../server/switchboard-mcp-server.factory';
import { ToolListChanges } from '../server/tool-list-changes';
import { TaskUpdates } from '../bridge/task-updates';

const SESSION_HEADER = 'mcp-session-id';

/**
 * Streamable HTTP at `/mcp` for both protocol eras, with nothing a later request depends on kept in
 * the process:
 *
 * - 2026-07-28 clients are stateless by design: the SDK's handler answers each request.
 * - 2025-era clients get a session (`Mcp-Session-Id`) at `initialize`; the session lives in the
 *   shared session store and each of its requests is then served by a server of its own, so any
 *   replica answers any request of any session. The answer streams of requests that may run long
 *   (calls, reads) carry event ids kept in the shared event store, so a broken one is resumed
 *   (`Last-Event-ID`) on any replica; a `notifications/cancelled` reaches its request through the
 *   shared cancel signals. Quick ones (lists, pings) are answered at once, without either.
 *
 * Changes to the tool list reach clients of both eras: 2026-07-28 `subscriptions/listen` streams
 * (the SDK's) and 2025-era GET streams (ours), from one event bus. What this gives up:
 * server-to-client requests in the middle of a 2025-era call, which would need the replica holding
 * the stream.
 */
@Injectable()
export class McpHttpEndpoint implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(McpHttpEndpoint.name);
  private readonly policy: RequestOriginPolicy;
  private readonly sessionTtlMs: number;
  private readonly publicUrl: string | undefined;
  /** Both eras: the SDK tells them apart and serves 2025-era requests statelessly. */
  private readonly handler: McpHttpHandler;
  /** The 2025-era GET streams open on this replica, by session. */
  private readonly streams = new Map<string, Set<SessionEventStream>>();
  private readonly stopWatchingTools: () => void;
  /** Ends the streams that would otherwise hold the HTTP server open at shutdown. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly factory: SwitchboardMcpServerFactory,
    private readonly cancelledRequests: CancelledRequests,
    private readonly callerRequests: CallerRequests,
    @Inject(MCP_SESSION_STORE) private readonly sessions: McpSessionStore,
    @Inject(MCP_EVENT_STORE) private readonly events: McpEventStore,
    toolListChanges: ToolListChanges,
    @Inject(MCP_CATALOG_SOURCE) private readonly catalog: McpCatalogSource,
    private readonly bridge: SubagentBridge,
    private readonly updates: TaskUpdates,
    private readonly subscriptionChanges: LocalSubscriptionChanges,
    private readonly metrics: MetricsService,
    private readonly callers: CallerAuthenticator,
    private readonly mcpTasks: McpTasks,
    config: ConfigService<SwitchboardConfig, true>,
  ) {
    const mcpServer = config.get('mcp_server', { infer: true });
    this.publicUrl = config.get('server', { infer: true }).public_url;
    this.policy = requestOriginPolicy({ server: config.get('server', { infer: true }), mcp_server: mcpServer });
    this.sessionTtlMs = mcpServer.session_ttl_secs * 1000;
    const create = (ctx: McpRequestContext) =>
      factory.create(callerOf(ctx.authInfo), ctx.era === 'modern' ? 'modern' : 'legacy', serverNeedsOf(ctx.authInfo));
    const onerror = (error: Error) => this.logger.warn({ err: error.message }, 'MCP request failed');
    this.handler = createMcpHandler(create, { legacy: 'stateless', responseMode: 'auto', onerror });
    const offered = new OfferedLists(catalog, bridge);
    this.stopWatchingTools = toolListChanges.onChange(() => {
      this.handler.notify.toolsChanged();
      const changed = offered.changed();
      if (changed.prompts) this.handler.notify.promptsChanged();
      if (changed.resources) this.handler.notify.resourcesChanged();
    });
    metrics.mcpSessions.readFrom(async (): Promise<Sample<never>[]> => [[{}, await sessions.count()]]);
  }

  /** Serves one request; Fastify has parsed the body already. */
  async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const principal = principalOf(request);
    const caller: McpCaller = {
      owner: principal?.name ?? '',
      scope: principal?.scope ?? AccessScope.unrestricted,
      context: callContextFor(request, request.headers, false),
      baseUrl: baseUrlOf(request, this.publicUrl),
      taskParamOf: () => taskParamIn(request.body),
    };
    const body = fromSeedEnvelope(request.body);
    const signal = clientGoneSignal(reply, isStream(request.method, body) ? this.stopping.signal : undefined);
    // Upstreams that take the caller's token in exchange find it here, for the whole of the request's work.
    const response = await onBehalfOf(await this.accessTokenOf(request), () =>
      this.respond(forwardedRequest(request, signal), body, caller),
    );
    if (isEventStream(response)) this.metrics.streamOpened('mcp', reply.raw);
    await sendFetchResponse(reply, response);
  }

  private async accessTokenOf(request: FastifyRequest): Promise<string | undefined> {
    if (!this.callers.required) return undefined;
    const verdict = await this.callers.authenticate(request);
    return verdict.kind === 'valid' && verdict.by === 'token' ? verdict.accessToken : undefined;
  }

  /** Streams end before the HTTP server closes; calls in flight are left to finish. */
  beforeApplicationShutdown(): void {
    this.stopWatchingTools();
    this.stopping.abort();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.handler.close();
  }

  private async respond(request: Request, body: unknown, caller: McpCaller): Promise<Response> {
    const rejected =
      hostHeaderValidationResponse(request, this.policy.hosts) ??
      originValidationResponse(request, this.policy.origins);
    if (rejected) {
      this.logger.warn(
        { host: request.headers.get('host'), origin: request.headers.get('origin') },
        'rejected an MCP request from a host or origin not allowed',
      );
      return rejected;
    }
    const refused = request.method === 'POST' ? await refusedLegacyRequest(request, body) : undefined;
    if (refused) return refused;
    // Only 2025-era clients send a session id, and they open one with `initialize`: everything else
    // (2026-07-28 requests, and 2025-era requests of clients that keep no session) is the SDK's alone.
    if (request.headers.has(SESSION_HEADER)) return this.inSession(request, body, caller);
    const parsedBody = isListen(body) ? await this.listenToOwnTasks(body, caller, request.signal) : body;
    const response = await this.handler.fetch(request, { parsedBody, authInfo: authInfoFor(caller, parsedBody) });
    if (request.method === 'POST' && isRequestMessage(body) && body.method === 'initialize' && response.ok) {
      response.headers.set(
        SESSION_HEADER,
        await this.sessions.open(caller.owner, (body.params as InitializeRequestParams).capabilities),
      );
    }
    return response;
  }

  /** A request of a 2025-era session from the shared store: nothing of it is kept in this process between requests. */
  private async inSession(request: Request, body: unknown, caller: McpCaller): Promise<Response> {
    const sessionId = request.headers.get(SESSION_HEADER)!;
    const [owner, earlyWatch] = await Promise.allSettled([
      this.sessions.owner(sessionId),
      this.cancelWatchBeside(request, body, sessionId),
    ]);
    // A session of another caller is as unknown as an expired one.
    if (owner.status === 'rejected' || owner.value !== caller.owner) {
      if (earlyWatch.status === 'fulfilled') earlyWatch.value?.dispose();
      if (owner.status === 'rejected') throw owner.reason;
      return sessionNotFound();
    }
    if (earlyWatch.status === 'rejected') throw earlyWatch.reason;
    if (request.method === 'DELETE') {
      await this.sessions.close(sessionId);
      this.closeStreams(sessionId);
      return new Response(null, { status: 200 });
    }
    const lastEventId = request.headers.get('last-event-id');
    if (request.method === 'GET' && lastEventId)
      return resumedStream(this.events, sessionId, lastEventId, request.signal);
    if (request.method === 'GET') return this.openStream(request, sessionId, caller);
    // The caller's answer to a request relayed to it in the middle of one of its calls.
    if (
      this.callerRequests.answer(sessionId, body) ||
      (await takeSessionAnswer(this.mcpTasks, body, { ...caller, sessionId }))
    )
      return new Response(null, { status: 202 });
    // A 2025-era client may still name a listen in a session; it gets the same guard.
    if (isListen(body)) body = await this.listenToOwnTasks(body, caller, request.signal);
    const inSession = { ...caller, sessionId };
    for (const requestId of cancelledRequestIds(body)) await this.cancelledRequests.cancel(sessionId, requestId);
    const requestIds = requestIdsOf(body);
    // What cannot run long (a notification, a list, a ping) has no stream to resume and no time to be canceled in.
    if (!mayRunLong(body))
      return this.handler.fetch(request, { parsedBody: body, authInfo: authInfoFor(inSession, body) });
    const canceled = earlyWatch.value ?? (await this.cancelledRequests.watch(sessionId, requestIds));
    if (canceled.signal.aborted) {
      // Canceled before it was served: it never will be, and gets no response.
      canceled.dispose();
      return new Response('', { headers: { 'content-type': 'text/event-stream' } });
    }
    const authInfo = authInfoFor(inSession, body);
    const server = this.factory.create(inSession, 'legacy', serverNeedsOf(authInfo));
    return serveResumably(
      server,
      this.events,
      sessionId,
      request,
      { parsedBody: body, authInfo },
      requestIds,
      canceled,
    );
  }

  /**
   * The cancel watch of a POST that is one call (the common case), begun while its session is looked
   * up: both are reads, and the call waits for both. Other requests watch, if they must, once the
   * session is known.
   */
  private async cancelWatchBeside(
    request: Request,
    body: unknown,
    sessionId: string,
  ): Promise<CancelWatch | undefined> {
    if (request.method !== 'POST' || !isRequestMessage(body) || !mayRunLong(body)) return undefined;
    return this.cancelledRequests.watch(sessionId, [String(body.id)]);
  }

  /** A GET stream for the session's server-initiated notifications. */
  private openStream(request: Request, sessionId: string, caller: McpCaller): Response {
    if (!request.headers.get('accept')?.includes('text/event-stream')) {
      return Response.json(
        {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Not Acceptable: the GET stream needs Accept: text/event-stream' },
          id: null,
        },
        { status: 406 },
      );
    }
    const stream = sessionEventStream(this.handler.bus, {
      sessionTtlMs: this.sessionTtlMs,
      // Reading the owner extends the session's life; a session gone (expired, deleted on another replica) ends the stream.
      keepSession: () =>
        void this.sessions.owner(sessionId).then(
          (owner) => owner === undefined && end(),
          () => undefined,
        ),
    });
    const open = this.streams.get(sessionId) ?? new Set<SessionEventStream>();
    this.streams.set(sessionId, open.add(stream));
    const following = new AbortController();
    followSessionSubscriptions(
      this.sessions,
      this.subscriptionChanges,
      this.updates,
      this.catalog,
      sessionId,
      stream.send,
      following.signal,
      async (taskId) => sessionMessagesOf(await this.mcpTasks.get(taskId, caller), this.mcpTasks.terms()),
    );
    const end = () => {
      following.abort();
      stream.close();
      open.delete(stream);
      if (open.size === 0 && this.streams.get(sessionId) === open) this.streams.delete(sessionId);
    };
    // The client may have left during the session lookup, before this listener existed.
    if (request.signal.aborted) end();
    else request.signal.addEventListener('abort', end, { once: true });
    return stream.response;
  }

  /** A 2026-07-28 listen, kept to the caller's own tasks, which this replica follows while the listen is open. */
  private async listenToOwnTasks(
    listen: ListenRequest,
    caller: McpCaller,
    signal: AbortSignal,
  ): Promise<ListenRequest> {
    const notify = (uri: string) => this.handler.notify.resourceUpdated(uri);
    return withResourceSubscriptions(
      listen,
      await followListenedTasks(
        listen,
        caller,
        this.bridge,
        this.updates,
        scopedCatalog(this.catalog, caller.scope),
        notify,
        signal,
      ),
    );
  }

  private closeStreams(sessionId: string): void {
    for (const stream of this.streams.get(sessionId) ?? []) stream.close();
    this.streams.delete(sessionId);
  }
}

/** The caller, and what the body needs of a server, ride to the per-request server factory in the SDK's pass-through `authInfo`. */
function authInfoFor(caller: McpCaller, body: unknown): AuthInfo {
  return authInfoOf(caller, serverNeeds(body));
}

/** Requests a server with every tool of the caller's scope answers without running any. */
const LISTING_METHODS = new Set(['ping', 'tools/list']);

/**
 * What a body of one request needs of its server: for a `tools/call`, the tool it names (in the
 * 2026-07-28 era the SDK checks it against the `Mcp-Name` header) and no other.
 */
function serverNeeds(body: unknown): ServerNeeds {
  if (!isRequestMessage(body)) return 'everything';
  if (LISTING_METHODS.has(body.method)) return 'listing';
  if (body.method !== 'tools/call') return 'everything';
  const name = (body.params as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? { tool: name } : 'everything';
}

/** The `task` of a 2025-era `tools/call` body: the call asks to run as a task. */
function taskParamIn(body: unknown): unknown {
  return isRequestMessage(body) && body.method === 'tools/call'
    ? (body.params as { task?: unknown } | undefined)?.task
    : undefined;
}

/** A 2025-era GET stream or a 2026-07-28 `subscriptions/listen`: open until the client or the server ends it. */
function isStream(method: string, body: unknown): boolean {
  return method === 'GET' || isListen(body);
}

/** The spec's answer to an unknown or ended session: 404, and the client starts a new one. */
function sessionNotFound(): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null },
    { status: 404 },
  );
}

/** Requests answered from what this process holds or one store read, at once. */
const QUICK_METHODS = new Set([
  'ping',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'logging/setLevel',
  'tasks/get',
  'tasks/list',
]);

/** Whether a POST body has a request that may take a while (a call, a read, a wait for a task): one served on a resumable stream. */
function mayRunLong(body: unknown): boolean {
  return messagesOf(body).some((message) => isRequestMessage(message) && !QUICK_METHODS.has(message.method));
}

/** The ids of the requests in a POST body (one message or a batch). */
function requestIdsOf(body: unknown): string[] {
  return messagesOf(body)
    .filter(isRequestMessage)
    .map((message) => String(message.id));
}

/** Request ids named by `notifications/cancelled` messages in a POST body (one message or a batch). */
function cancelledRequestIds(body: unknown): string[] {
  return messagesOf(body)
    .filter((message) => isNotificationMessage(message) && message.method === 'notifications/cancelled')
    .map((message) => (message as { params?: { requestId?: unknown } }).params?.requestId)
    .filter((id): id is string | number => typeof id === 'string' || typeof id === 'number')
    .map(String);
}

function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}
