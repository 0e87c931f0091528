import { Logger } from '@nestjs/common';
import {
  type Client,
  ProtocolError,
  ProtocolErrorCode,
  type CreateMessageResult,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import type { McpCallOptions, UpstreamRequest } from './mcp-tool-source.interface';

type CallListeners = Pick<McpCallOptions, 'onlog' | 'onprogress' | 'onrequest'>;

/**
 * The tool calls in flight on one server's connection, and what the server sends them while they
 * run: log messages (to every call: a log message names none), progress (by the token each call
 * sent), and its sampling and elicitation requests (to the one call in flight, never to a call
 * that might not be the one asking).
 */
export class CallsInFlight {
  private readonly logger = new Logger(CallsInFlight.name);
  private readonly calls = new Set<CallListeners>();
  /**
   * By the progress token sent with the call. Not the SDK's own `onprogress`: it forgets a call's
   * handler when the result arrives but hands notifications over a microtask later, so a last
   * progress notification sent just before the result was lost.
   */
  private readonly progress = new Map<string, NonNullable<McpCallOptions['onprogress']>>();
  private progressTokens = 0;

  constructor(private readonly server: string) {}

  /** Routes to `client`'s calls what its server sends them, while `current()` says it is the live client. */
  attach(client: Client, current: () => boolean): void {
    client.setNotificationHandler('notifications/message', ({ params }) => {
      if (!current()) return;
      const listening = [...this.calls].filter((call) => call.onlog);
      if (listening.length === 0)
        this.logger.debug(
          { server: this.server, level: params.level, data: params.data },
          'MCP server log message with no call in flight',
        );
      for (const { onlog } of listening) onlog!(params);
    });
    client.setNotificationHandler('notifications/progress', ({ params: { progressToken, ...progress } }) => {
      this.progress.get(String(progressToken))?.(progress);
    });
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      this.askCaller<CreateMessageResult>(request, ctx.mcpReq.signal),
    );
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      this.askCaller<ElicitResult>(request, ctx.mcpReq.signal),
    );
  }

  /** Runs `call` as in flight with `listeners`; `call` gets the progress token to send, if progress is wanted. */
  async run<T>(listeners: CallListeners, call: (progressToken: string | undefined) => Promise<T>): Promise<T> {
    const progressToken = listeners.onprogress && `switchboard-${++this.progressTokens}`;
    this.calls.add(listeners);
    if (progressToken) this.progress.set(progressToken, listeners.onprogress!);
    try {
      return await call(progressToken);
    } finally {
      this.calls.delete(listeners);
      if (progressToken) this.progress.delete(progressToken);
    }
  }

  /** A request carries nothing that names its call, so it is relayed only while exactly one call is in flight. */
  private async askCaller<R>(request: UpstreamRequest, signal: AbortSignal): Promise<R> {
    const calls = [...this.calls];
    if (calls.length !== 1) {
      const why =
        calls.length === 0
          ? 'no call to it is in flight'
          : `${calls.length} calls to it are in flight and the request does not say whose it is`;
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Switchboard cannot relay ${request.method} from MCP server "${this.server}": ${why}`,
      );
    }
    const [{ onrequest }] = calls;
    if (!onrequest)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `The caller of this tool (through Switchboard) cannot answer ${request.method}`,
      );
    return (await onrequest(request, signal)) as R;
  }
}
