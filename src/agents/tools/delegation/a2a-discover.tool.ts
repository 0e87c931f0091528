import type { AgentCard } from '@a2a-js/sdk';
import { InvalidAgentCardError } from '../../../a2a-client/a2a-client.errors';
import { fetchAgentCard } from '../../../a2a-client/agent-card.reader';
import type { ExternalAgent } from '../../../a2a-client/external-agent';
import { createGuardedFetch } from '../../../security/guarded-fetch';
import { OutboundUrlBlockedError, type OutboundUrlPolicy } from '../../../security/outbound-url-policy';
import { failure } from '../tool-limits';
import type { ToolCallContext, ToolDefinition, ToolResult } from '../tool-provider.interface';
import type { DelegationTool } from './delegation-tool.interface';
import type { DelegationRules } from './delegation-rules';

/** What a model reads of an agent card: enough to pick an agent and phrase a message. */
function cardSummary(card: AgentCard | undefined) {
  return {
    streaming: card?.capabilities?.streaming === true,
    skills: (card?.skills ?? []).map(({ id, name, description, examples }) => ({ id, name, description, examples })),
  };
}

/**
 * `a2a_discover`: the external agents the calling agent may delegate to, each with its status and
 * what its card says; or, given a URL, the summary of the card published there (read under the SSRF
 * rules, and not added: only configured agents can be sent to).
 */
export class A2aDiscoverTool implements DelegationTool {
  readonly definition: ToolDefinition = {
    name: 'a2a_discover',
    description:
      'List the external A2A agents you may delegate to with a2a_send: name, description, status ("ready" when it can be sent to), ' +
      'whether it streams, and its skills. With "url", read the agent card published at that URL instead and summarize it; ' +
      'that agent is not added: a2a_send only reaches the listed agents.',
    inputSchema: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          description:
            "An agent's base URL (its card is read from /.well-known/agent-card.json) or its card's own URL (ending in .json).",
        },
      },
      additionalProperties: false,
    },
  };
  private readonly fetch: typeof fetch;

  constructor(
    private readonly rules: DelegationRules,
    outbound: OutboundUrlPolicy,
    private readonly maxCardBytes: number,
  ) {
    this.fetch = createGuardedFetch(outbound);
  }

  call(args: Record<string, unknown>, signal: AbortSignal, caller: ToolCallContext): Promise<ToolResult> {
    if (args.url === undefined) return Promise.resolve(this.list(caller.agent));
    if (typeof args.url !== 'string' || !URL.canParse(args.url))
      return Promise.resolve(failure('a2a_discover: "url" must be an http:// or https:// URL.'));
    return this.readCard(args.url, signal);
  }

  private list(agent: string): ToolResult {
    const agents = this.rules.allowedFor(agent).map((external) => this.describe(external));
    return { text: JSON.stringify({ agents }), isError: false };
  }

  private describe(external: ExternalAgent) {
    const card = external.card;
    return {
      name: external.name,
      // The delegate's description falls back on the manifest's, or says where the agent is.
      description: card?.description || (this.rules.delegateOf(external.name)?.config.description ?? ''),
      status: external.status().state,
      ...cardSummary(card),
    };
  }

  private async readCard(url: string, signal: AbortSignal): Promise<ToolResult> {
    try {
      const cardPath = new URL(url).pathname.endsWith('.json') ? '' : undefined;
      const fetched = await fetchAgentCard(this.fetch, url, cardPath, this.maxCardBytes, signal);
      const { name, description, version } = fetched.card;
      return {
        text: JSON.stringify({ card_url: fetched.url, name, description, version, ...cardSummary(fetched.card) }),
        isError: false,
      };
    } catch (error) {
      if (error instanceof OutboundUrlBlockedError) return failure(`Refused: ${error.message}`);
      if (error instanceof InvalidAgentCardError) return failure(error.message);
      if (signal.aborted || !(error instanceof TypeError && error.cause instanceof Error)) throw error;
      // undici's "fetch failed" says nothing; its cause says what (refused, reset, DNS...).
      throw new Error(`the agent card at ${url} could not be read: ${error.cause.message}`, { cause: error });
    }
  }
}
