import { Inject, Injectable } from '@nestjs/common';
import {
  CLIENT_CAPABILITIES_META_KEY,
  ClientCapabilities,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { UpstreamRequest, UpstreamRequestHandler } from '../../mcp-client/mcp-tool-source.interface';
import { CallerRequests } from '../sessions/caller-requests';
import type { McpCaller } from '../mcp-caller';
import { MCP_SESSION_STORE, McpSessionStore } from '../stores/mcp-session-store.interface';

/**
 * Asks the caller of a request in progress (sampling, elicitation): an upstream's request relayed,
 * or the question of an MCP task waiting for input.
 */
@Injectable()
export class AskCaller {
  constructor(
    @Inject(MCP_SESSION_STORE) private readonly sessions: McpSessionStore,
    private readonly callerRequests: CallerRequests,
  ) {}

  /**
   * A connection that lives as long as its client (stdio) knows what the client declared, and the SDK
   * refuses what it did not (as it does, in the 2026-07-28 era, every request of this kind). A
   * 2025-era HTTP session's server lives for one POST: the session's declared capabilities decide.
   * `server`: the server instance answering the request.
   */
  async ask(
    request: UpstreamRequest,
    caller: McpCaller,
    ctx: ServerContext,
    server: Server,
    signal: AbortSignal,
  ): Promise<object> {
    if (caller.sessionId === undefined) return ctx.mcpReq.send(request, { signal });
    const capabilities = await this.sessions.clientCapabilities(caller.sessionId);
    return refusedUnless(capabilities ?? {}, (checked) =>
      this.callerRequests.ask(caller.sessionId!, server.transport!, ctx.mcpReq.id, checked, signal),
    )(request, signal);
  }
}

/** `ask`, for the requests a client that declared `capabilities` may be sent; an error naming what it lacks for the others. */
export function refusedUnless(capabilities: ClientCapabilities, ask: UpstreamRequestHandler): UpstreamRequestHandler {
  return (request, signal) => {
    const missing = missingCapabilities(request, capabilities);
    if (missing)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `The caller (through Switchboard) does not support ${capabilityNames(missing)}, which ${request.method} needs`,
      );
    return ask(request, signal);
  };
}

/**
 * What a client must have declared to be sent `request` and did not, in the `ClientCapabilities`
 * shape of a -32021 error's `requiredCapabilities`; undefined when it declared it all. The rule the
 * SDK applies to the input requests of a 2026-07-28 answer: sampling with tools needs
 * `sampling.tools`, each elicitation mode its own member, and a bare `elicitation: {}` is form
 * elicitation (2025-06-18).
 */
export function missingCapabilities(
  request: UpstreamRequest,
  declared: ClientCapabilities,
): ClientCapabilities | undefined {
  if (request.method === 'sampling/createMessage') {
    const withTools = request.params.tools !== undefined || request.params.toolChoice !== undefined;
    if (!declared.sampling) return { sampling: withTools ? { tools: {} } : {} };
    return withTools && !declared.sampling.tools ? { sampling: { tools: {} } } : undefined;
  }
  const { elicitation } = declared;
  if (request.params.mode === 'url') return elicitation?.url ? undefined : { elicitation: { url: {} } };
  return elicitation && (elicitation.form || !elicitation.url) ? undefined : { elicitation: { form: {} } };
}

function capabilityNames(missing: ClientCapabilities): string {
  if (missing.sampling) return missing.sampling.tools ? 'sampling with tools' : 'sampling';
  return missing.elicitation?.url ? 'URL elicitation' : 'form elicitation';
}

/** What a 2026-07-28 request's client declared (in its `_meta`); undefined for a 2025-era request. */
export function modernClientCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  // The SDK types the envelope as an open record.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope?.[PROTOCOL_VERSION_META_KEY] === undefined) return undefined;
  return (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? {};
}
