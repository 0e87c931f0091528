import type { AgentCard, AgentInterface } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type CallInterceptor,
} from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { Logger } from '@nestjs/common';
import { backoffDelayMs } from '../common/backoff';
import type { ExternalAgentConfig } from '../config/config.schema';
import { OutboundUrlBlockedError, type OutboundUrlPolicy } from '../security/outbound-url-policy';
import { ExternalAgentUnavailableError } from './a2a-client.errors';
import { fetchAgentCard, usableInterface } from './agent-card.reader';
import { externalAgentAccess, type ExternalAgentAccess } from './external-agent-fetch';
import { dialableGrpcTarget } from './grpc-target';
import { withResultKinds } from './v03-result-kinds';
import type { A2aClientSettings } from '../config/external-agent.schema';
import { asSwitchboard } from '../security/oauth/on-behalf-of';

/**
 * `discovering` until the first attempt ends; `ready` once its card is read and a client built;
 * `retrying` while its card cannot be had (unreachable, invalid); `refused` when its card points
 * where the SSRF rules forbid.
 */
export type ExternalAgentState = 'discovering' | 'ready' | 'retrying' | 'refused';

export interface ExternalAgentStatus {
  state: ExternalAgentState;
  /** Why the last discovery failed; on a `ready` agent, why its last refresh did. */
  error?: string;
  /** The interface requests go to, and the protocol version spoken there. */
  interface?: { url: string; binding: string; protocol_version: string };
  card_url?: string;
  discovered_at?: string;
}

interface Discovery {
  card: AgentCard;
  document: Record<string, unknown>;
  cardUrl: string;
  chosen: AgentInterface;
  client: Client;
  at: Date;
}

/**
 * One external A2A agent: its card discovered in the background (retried with backoff, refreshed
 * periodically), and an `@a2a-js/sdk` client for the interface its card offers, speaking v1.0 or
 * v0.3 as the card says. Every request goes through the agent's guarded fetch.
 */
export class ExternalAgent {
  private readonly logger = new Logger(ExternalAgent.name);
  private readonly access: ExternalAgentAccess;
  private readonly factory: ClientFactory;
  private state: ExternalAgentState = 'discovering';
  private lastError?: string;
  private discovery?: Discovery;
  private attempt?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private failures = 0;
  /** Whether this agent was found leaving out the `kind` of its v0.3 results (logged once). */
  private omitsKinds = false;
  private stopped = false;

  constructor(
    readonly config: ExternalAgentConfig,
    private readonly policy: OutboundUrlPolicy,
    private readonly settings: A2aClientSettings,
  ) {
    this.access = externalAgentAccess(config, policy);
    const compat = {
      fetchImpl: withResultKinds(this.access.fetch, (kind) => this.noteMissingKind(kind)),
      legacyCompat: { enabled: true },
    };
    this.factory = new ClientFactory({
      transports: [new JsonRpcTransportFactory(compat), new RestTransportFactory(compat)],
    });
  }

  private noteMissingKind(kind: string): void {
    if (this.omitsKinds) return;
    this.omitsKinds = true;
    this.logger.warn(
      { agent: this.name, kind },
      'external agent leaves out the kind of its v0.3 results (the spec requires it); read from their shape',
    );
  }

  get name(): string {
    return this.config.name;
  }

  /** The card as the agent publishes it, once discovered. */
  get card(): AgentCard | undefined {
    return this.discovery?.card;
  }

  get cardDocument(): Record<string, unknown> | undefined {
    return this.discovery?.document;
  }

  /** Whether its card was read at the last try: discovered, and not failing to refresh since. */
  get up(): boolean {
    return this.state === 'ready' && this.lastError === undefined;
  }

  /** Whether the agent streams (its card says so): tasks are then followed by SSE, else by polling. */
  get streams(): boolean {
    return this.discovery?.card.capabilities?.streaming === true;
  }

  status(): ExternalAgentStatus {
    const found = this.discovery;
    return {
      state: this.state,
      ...(this.lastError && { error: this.lastError }),
      ...(found && {
        interface: {
          url: found.chosen.url,
          binding: found.chosen.protocolBinding,
          protocol_version: found.chosen.protocolVersion || '1.0',
        },
        card_url: found.cardUrl,
        discovered_at: found.at.toISOString(),
      }),
    };
  }

  start(): void {
    void this.discover();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** The SDK client; an agent not discovered yet is tried once more at once, else this names why it is unavailable. */
  async client(): Promise<Client> {
    if (!this.discovery) await this.discover();
    if (!this.discovery) throw new ExternalAgentUnavailableError(this.name, this.lastError ?? 'not discovered yet');
    return this.discovery.client;
  }

  /** Discovers now, or joins the attempt under way. Never throws: the outcome is in `status()`. */
  discover(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.attempt ??= asSwitchboard(() => this.attemptDiscovery()).finally(() => (this.attempt = undefined));
    return this.attempt;
  }

  private async attemptDiscovery(): Promise<void> {
    clearTimeout(this.timer);
    try {
      this.discovery = await this.readCard();
      this.onDiscovered();
    } catch (error) {
      this.onFailed(error);
    }
  }

  private async readCard(): Promise<Discovery> {
    const { url, document, card } = await fetchAgentCard(
      this.access.fetch,
      this.config.url,
      this.config.card_path,
      this.settings.max_card_bytes,
    );
    const chosen = usableInterface(card)!;
    const previous = this.discovery?.chosen;
    // The same interface as before keeps its client (a gRPC one holds a channel open).
    const same =
      previous &&
      previous.url === chosen.url &&
      previous.protocolBinding === chosen.protocolBinding &&
      previous.protocolVersion === chosen.protocolVersion;
    const client = same ? this.discovery!.client : await this.clientFor(card, chosen);
    return { card, document, cardUrl: url, chosen, client, at: new Date() };
  }

  /** The SDK's client for that one interface, so that it talks where the SSRF check looked. */
  private async clientFor(card: AgentCard, chosen: AgentInterface): Promise<Client> {
    if (chosen.protocolBinding.toUpperCase() !== 'GRPC') {
      await this.policy.check(chosen.url);
      return this.factory.createFromAgentCard({ ...card, supportedInterfaces: [chosen] });
    }
    const { endpoint, channel } = await dialableGrpcTarget(this.policy, chosen.url);
    const factory = new ClientFactory({
      transports: [new GrpcTransportFactory({ grpcChannelCredentials: channel, legacyCompat: { enabled: true } })],
      clientConfig: { interceptors: [withMetadata(this.access.headers)] },
    });
    return factory.createFromAgentCard({ ...card, supportedInterfaces: [{ ...chosen, url: endpoint }] });
  }

  private onDiscovered(): void {
    const wasReady = this.state === 'ready' && !this.lastError;
    this.state = 'ready';
    this.lastError = undefined;
    this.failures = 0;
    if (!wasReady)
      this.logger.log(
        { agent: this.name, ...this.status().interface, skills: this.card!.skills.length },
        'external A2A agent discovered',
      );
    this.schedule(this.settings.card_refresh_secs * 1000);
  }

  private onFailed(error: unknown): void {
    if (this.stopped) return;
    const refused = error instanceof OutboundUrlBlockedError;
    const reason = describe(error);
    const changed = reason !== this.lastError;
    this.lastError = reason;
    if (refused) {
      // A card pointing somewhere forbidden is not used, even if an earlier one was.
      this.discovery = undefined;
      this.state = 'refused';
    } else if (!this.discovery) {
      this.state = 'retrying';
    }
    if (changed)
      this.logger.warn({ agent: this.name, state: this.state, err: reason }, 'external A2A agent discovery failed');
    const delay = refused
      ? this.settings.card_refresh_secs * 1000
      : backoffDelayMs(this.failures++, {
          baseMs: this.settings.discovery_retry_base_ms,
          maxMs: this.settings.discovery_retry_max_ms,
        });
    this.schedule(delay);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.discover(), delayMs);
    this.timer.unref();
  }
}

/** undici's "fetch failed" says nothing; its cause says what (refused, reset, DNS, timeout). */
function describe(error: unknown): string {
  if (error instanceof OutboundUrlBlockedError) return `card refused: ${error.message}`;
  if (error instanceof TypeError && error.cause instanceof Error) return `${error.message}: ${error.cause.message}`;
  return (error as Error)?.message ?? String(error);
}

/** Puts the agent's headers (credentials, extra headers) in every gRPC call's metadata. */
function withMetadata(headers: () => Promise<Record<string, string>>): CallInterceptor {
  return {
    before: async (args) => {
      args.options = {
        ...args.options,
        serviceParameters: { ...args.options?.serviceParameters, ...(await headers()) },
      };
    },
    after: async () => undefined,
  };
}
