import { Inject, Injectable } from '@nestjs/common';
import {
  CallToolResult,
  InputRequiredResult,
  LoggingMessageNotificationParams,
  Progress,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';
import { ToolPipeline } from '../../agents/tools/tool-pipeline.service';
import {
  MCP_TOOL_SOURCE,
  McpCallOptions,
  McpToolSource,
  UpstreamRequestHandler,
} from '../../mcp-client/mcp-tool-source.interface';
import { AskCaller, modernClientCapabilities } from './ask-caller';
import { InputRequiredRounds } from './input-required-rounds';
import { CALL_TOOL_RESULT_LIMITER } from '../../agents/tools/call-tool-result-limiter';
import type { McpCaller } from '../mcp-caller';

/**
 * A tool of a connected MCP server called by an MCP client of `/mcp`: under the tools' limits
 * (`tools.timeout_secs`, `tools.max_result_chars`) as an agent's call is, with the upstream's
 * progress (when the caller asked for it) and log messages passed on to the caller, and its
 * sampling and elicitation requests relayed to the caller and answered by it. An unavailable
 * or slow upstream is the tool's failure (`isError`), not a protocol error.
 */
@Injectable()
export class UpstreamToolCall {
  constructor(
    @Inject(MCP_TOOL_SOURCE) private readonly mcpTools: McpToolSource,
    private readonly toolPipeline: ToolPipeline,
    private readonly askCaller: AskCaller,
    private readonly rounds: InputRequiredRounds,
  ) {}

  /** `server`: the server instance answering the call. */
  async run(
    name: string,
    args: Record<string, unknown>,
    caller: McpCaller,
    ctx: ServerContext,
    server: Server,
  ): Promise<CallToolResult | InputRequiredResult> {
    const relay = new NotificationRelay(ctx);
    const call = async (onrequest: UpstreamRequestHandler, signal: AbortSignal) => {
      const result = await this.toolPipeline.bounded(
        name,
        `mcp:${caller.owner}`,
        signal,
        CALL_TOOL_RESULT_LIMITER,
        (bounded) => this.mcpTools.call(name, args, { ...relay.options(), onrequest, signal: bounded }),
      );
      // The upstream's last notifications came before its result: so they reach the caller.
      await relay.settled();
      return result;
    };
    if (modernClientCapabilities(ctx)) return this.rounds.round(ctx, caller.owner, call);
    return call(
      (request, signal) =>
        this.askCaller.ask(request, caller, ctx, server, AbortSignal.any([signal, ctx.mcpReq.signal])),
      ctx.mcpReq.signal,
    );
  }
}

/** Passes an upstream call's notifications on to the caller of `ctx`'s request. */
class NotificationRelay {
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly ctx: ServerContext) {}

  /** `onprogress` only when the caller asked for progress: the upstream's progress goes on under the caller's own token. */
  options(): Pick<McpCallOptions, 'onprogress' | 'onlog'> {
    const progressToken = this.ctx.mcpReq._meta?.progressToken;
    const onprogress = (progress: Progress) =>
      this.send(this.ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...progress, progressToken } }));
    // At the level the caller set: the SDK filters.
    const onlog = ({ level, data, logger }: LoggingMessageNotificationParams) =>
      this.send(this.ctx.mcpReq.log(level, data, logger));
    return { onprogress: progressToken === undefined ? undefined : onprogress, onlog };
  }

  settled(): Promise<unknown> {
    return Promise.all(this.sending);
  }

  private send(notification: Promise<void>): void {
    // A caller gone is not the call's failure.
    const sent = notification.catch(() => undefined);
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }
}
