import { SpanKind } from '@opentelemetry/api';
import { Logger } from '@nestjs/common';
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  type CallToolResult,
  type PriorDiscovery,
  type Prompt,
  type RequestOptions,
  type Resource,
  type ResourceTemplateType,
  type ServerCapabilities,
  type Tool,
  type Transport,
} from '@modelcontextprotocol/client';
import type { McpServerConfig } from '../config/config.schema';
import { McpServerUnavailableError, McpToolTimeoutError } from './mcp-client.errors';
import { CallsInFlight } from './calls-in-flight';
import type { McpCallOptions } from './mcp-tool-source.interface';
import { reconnectDelayMs } from './reconnect-backoff';
import { StderrTail } from './stderr-tail';
import { inSpan } from '../tracing/spans';
import { activeTraceCarrier } from '../tracing/trace-context';
import { callAsTask, runsAsTask } from './upstream-task-call';
import { SWITCHBOARD_VERSION } from '../common/version';
import { asSwitchboard } from '../security/oauth/on-behalf-of';

const CLIENT_INFO = { name: 'switchboard', version: SWITCHBOARD_VERSION };
/** Sampling and elicitation are the callers': each such request is relayed to the caller of the call it belongs to. */
const CLIENT_CAPABILITIES = { sampling: {}, elicitation: { form: {}, url: {} } };

/** Errors that mean the connection or session is gone, so a new one may succeed where this one failed. */
const LOST_CONNECTION_CODES = new Set<string>([
  SdkErrorCode.NotConnected,
  SdkErrorCode.ConnectionClosed,
  SdkErrorCode.SendFailed,
]);

/** A call's options once its progress token is chosen. */
type CallOptions = McpCallOptions & { progressToken?: string };

/** What a server offers besides tools, as last listed; empty lists for what it does not offer. */
export interface McpCatalog {
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  prompts: Prompt[];
}

const EMPTY_CATALOG: McpCatalog = { resources: [], resourceTemplates: [], prompts: [] };

export type McpConnectionState = 'connecting' | 'connected' | 'retrying' | 'closed';

export interface McpConnectionStatus {
  state: McpConnectionState;
  /** Why the last attempt failed or the connection dropped; cleared once connected. */
  error?: string;
  /** `modern` (2026-07-28, `server/discover`) or `legacy` (2025-era `initialize`). */
  era?: string;
  protocolVersion?: string;
  /** Times in a row the connection failed or was lost since it was last connected; 0 once connected. */
  failures: number;
  /** While retrying: when the next attempt is due (ISO 8601). */
  nextRetryAt?: string;
}

/**
 * One configured MCP server: connects in the background, keeps its tool list current (refreshed on
 * `notifications/tools/list_changed`), and reconnects on its own. The SDK's client does not recover
 * from a dropped connection or a stale session, so each attempt builds a new Client and transport;
 * the old client is closed first, which ends its stdio child.
 */
export class McpConnection {
  private readonly logger = new Logger(McpConnection.name);
  private readonly timeoutMs: number;
  private state: McpConnectionState = 'connecting';
  private session?: Client;
  private pending?: { client: Client; done: Promise<boolean> };
  private retryTimer?: NodeJS.Timeout;
  private nextRetryAt?: Date;
  private failures = 0;
  /** A stdio server's last stderr lines; empty for remote servers. */
  private readonly stderrTail = new StderrTail();
  private lastError?: string;
  /** The era found by the first connect, so reconnects skip the probe (on stdio, a second spawn). */
  private prior?: PriorDiscovery;
  /** As last listed; kept while reconnecting, so calls to them fail with the reason, not as unknown. */
  private toolList: Tool[] = [];
  private catalogList: McpCatalog = EMPTY_CATALOG;
  private readonly inFlight: CallsInFlight;
  /** Who hears of changes to each resource subscribed to upstream, by the server's own URI. */
  private readonly resourceWatchers = new Map<string, Set<() => void>>();

  constructor(
    readonly config: McpServerConfig,
    /** A transport for one attempt; a stdio server's stderr lines go to `onStderr`. */
    private readonly newTransport: (onStderr: (line: string) => void) => Transport,
    /** The tool list or the catalog may have changed. */
    private readonly onListsChanged: () => void,
  ) {
    this.timeoutMs = config.timeout_secs * 1000;
    this.inFlight = new CallsInFlight(config.name);
  }

  get name(): string {
    return this.config.name;
  }

  get connected(): boolean {
    return this.session !== undefined;
  }

  get tools(): Tool[] {
    return this.toolList;
  }

  get catalog(): McpCatalog {
    return this.catalogList;
  }

  get offersSubscriptions(): boolean {
    return this.session?.getServerCapabilities()?.resources?.subscribe === true;
  }

  /** Whether the connected server declared `capability`. */
  declares(capability: keyof ServerCapabilities): boolean {
    return this.session?.getServerCapabilities()?.[capability] !== undefined;
  }

  status(): McpConnectionStatus {
    return {
      state: this.state,
      error: this.lastError,
      era: this.session?.getProtocolEra(),
      protocolVersion: this.session?.getNegotiatedProtocolVersion(),
      failures: this.failures,
      ...(this.state === 'retrying' && this.nextRetryAt && { nextRetryAt: this.nextRetryAt.toISOString() }),
    };
  }

  /** What a stdio server last wrote to stderr (for operators: it may say more than they should see elsewhere). */
  get stderr(): string[] {
    return this.stderrTail.lines;
  }

  /** Connects in the background; failures are retried with backoff, never thrown. */
  start(): void {
    void this.connect();
  }

  /**
   * Calls a tool by its name on the server. While the server is down this fails at once, except
   * that an attempt already under way is waited for. A call that finds the connection gone
   * reconnects at once; it is retried, once, only if the server cannot have run it (a tool may not
   * be safe to run twice).
   */
  call(tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<CallToolResult> {
    return this.inFlight.run(options, (progressToken) => this.callOnce(tool, args, { ...options, progressToken }));
  }

  private async callOnce(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const client = await this.liveClient();
    try {
      return await this.callOn(client, tool, args, options);
    } catch (error) {
      if (options.signal?.aborted || !isConnectionLost(error)) throw error;
      this.drop(client, describe(error));
      if (!neverReachedTheServer(error))
        throw new McpServerUnavailableError(
          this.name,
          `${describe(error)}; the call may have run, so it is not retried`,
        );
      await this.connect();
      return this.callOn(await this.liveClient(), tool, args, options);
    }
  }

  /** A request other than a tool call (a read, a prompt, a completion) on the live connection, within the server's timeout. */
  async request<T>(run: (client: Client, options: RequestOptions) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return run(await this.liveClient(), { timeout: this.timeoutMs, signal });
  }

  /**
   * Calls `listener` on every `notifications/resources/updated` for resource `uri`, subscribing
   * upstream for its first listener and unsubscribing after its last. Returns the stop function.
   */
  async watchResource(uri: string, listener: () => void): Promise<() => Promise<void>> {
    if (!this.resourceWatchers.has(uri))
      await this.request((client, options) => client.subscribeResource({ uri }, options));
    const watchers = this.resourceWatchers.get(uri) ?? new Set();
    this.resourceWatchers.set(uri, watchers.add(listener));
    return async () => {
      watchers.delete(listener);
      if (watchers.size > 0 || this.resourceWatchers.get(uri) !== watchers) return;
      this.resourceWatchers.delete(uri);
      await this.request((client, options) => client.unsubscribeResource({ uri }, options)).catch(() => undefined);
    };
  }

  /** Waits for the connection attempt under way, if any. */
  async attempted(): Promise<void> {
    await this.pending?.done;
  }

  /** Stops reconnecting and closes the connection, ending a stdio server's process. */
  async close(): Promise<void> {
    this.state = 'closed';
    clearTimeout(this.retryTimer);
    const clients = [this.session, this.pending?.client].filter((client) => client !== undefined);
    this.session = undefined;
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await this.pending?.done;
  }

  private connect(): Promise<boolean> {
    if (this.session || this.state === 'closed') return Promise.resolve(this.session !== undefined);
    if (this.pending) return this.pending.done;
    clearTimeout(this.retryTimer);
    this.nextRetryAt = undefined;
    this.state = 'connecting';
    const client = this.newClient();
    // A connection serves every caller: its own requests (and the streams it opens) are Switchboard's.
    const done = asSwitchboard(() => this.open(client)).finally(() => (this.pending = undefined));
    this.pending = { client, done };
    return done;
  }

  private async open(client: Client): Promise<boolean> {
    try {
      await client.connect(
        this.newTransport((line) => this.stderrLine(line)),
        { timeout: this.timeoutMs, prior: this.prior },
      );
      const { tools } = await client.listTools(undefined, { timeout: this.timeoutMs });
      const catalog = await this.listCatalog(client);
      // A new session knows nothing of the old one's subscriptions; one the server refuses now (the resource is gone) is dropped.
      await Promise.all(
        [...this.resourceWatchers.keys()].map((uri) =>
          client.subscribeResource({ uri }, { timeout: this.timeoutMs }).catch(() => this.resourceWatchers.delete(uri)),
        ),
      );
      if (this.state === 'closed') throw new Error('shutting down');
      this.prior = verdictOf(client);
      this.session = client;
      this.toolList = tools;
      this.catalogList = catalog;
      this.state = 'connected';
      this.failures = 0;
      this.lastError = undefined;
      this.logger.log(
        {
          server: this.name,
          era: client.getProtocolEra(),
          protocolVersion: client.getNegotiatedProtocolVersion(),
          tools: tools.length,
        },
        'MCP server connected',
      );
      this.onListsChanged();
      return true;
    } catch (error) {
      await client.close().catch(() => undefined);
      if (this.state === 'closed') return false;
      // A remembered era may be what failed (the server was replaced): probe again next time.
      this.prior = undefined;
      this.lastError = describe(error);
      this.logger.warn(
        { server: this.name, err: this.lastError, failures: this.failures + 1 },
        'MCP server connection failed',
      );
      this.scheduleRetry();
      return false;
    }
  }

  private newClient(): Client {
    const client = new Client(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      // `auto` probes `server/discover` (2026-07-28) and falls back to `initialize`. The HTTP+SSE
      // transport predates 2026-07-28, so SSE servers skip the probe.
      versionNegotiation: { mode: this.config.transport.type === 'sse' ? 'legacy' : 'auto' },
      listChanged: {
        tools: { onChanged: (error, tools) => this.toolsRefreshed(client, error, tools) },
        resources: { autoRefresh: false, onChanged: () => void this.catalogChanged(client) },
        prompts: { autoRefresh: false, onChanged: () => void this.catalogChanged(client) },
      },
    });
    this.inFlight.attach(client, () => client === this.session);
    client.setNotificationHandler('notifications/resources/updated', ({ params }) => {
      for (const listener of this.resourceWatchers.get(params.uri) ?? []) listener();
    });
    client.onclose = () => this.drop(client, 'the connection closed');
    client.onerror = (error) => {
      if (isConnectionLost(error)) this.drop(client, describe(error));
      else this.logger.debug({ server: this.name, err: error.message }, 'MCP connection error');
    };
    return client;
  }

  private toolsRefreshed(client: Client, error: Error | null, tools: Tool[] | null): void {
    if (client !== this.session) return;
    if (error || !tools) {
      this.logger.warn({ server: this.name, err: error?.message }, 'MCP tool list refresh failed');
      return;
    }
    this.toolList = tools;
    this.logger.log({ server: this.name, tools: tools.length }, 'MCP tool list changed');
    this.onListsChanged();
  }

  /**
   * What the server offers besides tools. A list it fails to give (a server declaring `resources`
   * without templates, say) is offered empty: tools never wait on it.
   */
  private async listCatalog(client: Client): Promise<McpCatalog> {
    const offers = client.getServerCapabilities() ?? {};
    const options = { timeout: this.timeoutMs };
    const list = async <T>(what: string, offered: unknown, run: () => Promise<T[]>): Promise<T[]> => {
      if (!offered) return [];
      try {
        return await run();
      } catch (error) {
        this.logger.warn({ server: this.name, err: (error as Error).message }, `MCP ${what} list failed; none offered`);
        return [];
      }
    };
    const [resources, resourceTemplates, prompts] = await Promise.all([
      list('resource', offers.resources, async () => (await client.listResources(undefined, options)).resources),
      list(
        'resource template',
        offers.resources,
        async () => (await client.listResourceTemplates(undefined, options)).resourceTemplates,
      ),
      list('prompt', offers.prompts, async () => (await client.listPrompts(undefined, options)).prompts),
    ]);
    return { resources, resourceTemplates, prompts };
  }

  /** A `list_changed` of resources (which covers their templates) or prompts: everything is listed again. */
  private async catalogChanged(client: Client): Promise<void> {
    try {
      const catalog = await this.listCatalog(client);
      if (client !== this.session) return;
      this.catalogList = catalog;
      this.onListsChanged();
    } catch (error) {
      this.logger.warn({ server: this.name, err: describe(error) }, 'MCP resource or prompt list refresh failed');
    }
  }

  /** The connection is gone: close what is left of it (ending a stdio child) and reconnect later. */
  private drop(client: Client, reason: string): void {
    if (client !== this.session) return;
    this.session = undefined;
    this.lastError = reason;
    this.logger.warn({ server: this.name, err: reason }, 'MCP server connection lost; reconnecting');
    // Not from inside the transport's own error callback: an EventSource closed there still arms its retry timer.
    setImmediate(() => void client.close().catch(() => undefined));
    this.onListsChanged();
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.state === 'closed') return;
    this.state = 'retrying';
    const delay = reconnectDelayMs(this.failures++);
    this.nextRetryAt = new Date(Date.now() + delay);
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }

  private stderrLine(line: string): void {
    this.stderrTail.push(line);
    this.logger.debug({ server: this.name, line }, 'MCP server stderr');
  }

  /** Why a call cannot reach the server now, naming the connection's state; undefined while connected. */
  unavailable(): McpServerUnavailableError | undefined {
    if (this.session) return undefined;
    if (this.state === 'closed') return new McpServerUnavailableError(this.name, 'shutting down');
    if (this.lastError === undefined) return new McpServerUnavailableError(this.name, 'still connecting');
    return new McpServerUnavailableError(this.name, `${this.lastError} (reconnecting)`);
  }

  private async liveClient(): Promise<Client> {
    if (!this.session && this.pending) await this.pending.done;
    if (this.session) return this.session;
    throw this.unavailable()!;
  }

  /** In a client span whose context the request carries on (`_meta.traceparent`, the only carrier over stdio). */
  private callOn(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const attributes = {
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': tool,
      'switchboard.mcp.server': this.name,
    };
    return inSpan(
      `tools/call ${tool}`,
      () => ({ kind: SpanKind.CLIENT, attributes }),
      () => this.callTraced(client, tool, args, options),
    );
  }

  private async callTraced(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult> {
    const timeout = Math.min(options.timeoutMs ?? Infinity, this.timeoutMs);
    try {
      const carrier = activeTraceCarrier();
      const _meta =
        options.progressToken === undefined && !carrier
          ? undefined
          : { ...(options.progressToken !== undefined && { progressToken: options.progressToken }), ...carrier };
      const params = { name: tool, arguments: args, _meta };
      const { upstreamTask } = options;
      if (
        upstreamTask?.follow ||
        runsAsTask(
          client,
          this.toolList.find(({ name }) => name === tool),
        )
      )
        return await callAsTask(client, params, { timeout, signal: options.signal }, upstreamTask);
      return await client.callTool(params, { timeout, signal: options.signal });
    } catch (error) {
      // The SDK reports an aborted call as a timeout too.
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
        throw new McpToolTimeoutError(this.name, tool, timeout);
      throw error;
    }
  }
}

function verdictOf(client: Client): PriorDiscovery {
  const discover = client.getDiscoverResult();
  return client.getProtocolEra() === 'modern' && discover ? { kind: 'modern', discover } : { kind: 'legacy' };
}

function isConnectionLost(error: unknown): boolean {
  // A session the server no longer knows: 404 per the spec, 400 from some servers (server-everything).
  if (error instanceof SdkHttpError) return error.status === 404 || error.status === 400;
  if (error instanceof SdkError) return LOST_CONNECTION_CODES.has(error.code);
  // The SSE stream of an HTTP+SSE session broke, or the server could not be reached at all.
  return error instanceof SseError || (error instanceof TypeError && error.message === 'fetch failed');
}

/** The request was refused or never sent: a session the server no longer knows, or a transport that could not send. */
function neverReachedTheServer(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status === 404 || error.status === 400;
  return (
    error instanceof SdkError && (error.code === SdkErrorCode.NotConnected || error.code === SdkErrorCode.SendFailed)
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
