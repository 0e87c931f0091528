import { A2A_PROTOCOL_VERSION, AgentCard } from '@a2a-js/sdk';
import { A2A_LEGACY_PROTOCOL_VERSION } from '@a2a-js/sdk/compat/v0_3';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AgentRegistry } from '../agents/agent-registry.service';
import type { AgentProfile, SwitchboardConfig } from '../config/config.schema';
import { LiveCatalog } from '../config/live-catalog';
import { grpcAddress } from './grpc/grpc-address';

const JSONRPC = 'JSONRPC';
const HTTP_JSON = 'HTTP+JSON';
const GRPC = 'GRPC';
/** How v0.3 cards spell their version. */
const LEGACY_CARD_VERSION = '0.3.0';
const BEARER = 'bearer';
const ISSUER_DESCRIPTION = "An access token of this issuer, for this Switchboard's resource";

/**
 * Agent cards. The SDK's handler gets the v1.0 card; clients get one JSON document that both
 * protocol versions read: v1.0's fields (`supportedInterfaces`, `securityRequirements`) beside
 * v0.3's (`url`, `preferredTransport`, `protocolVersion`, `additionalInterfaces`, `security`).
 */
@Injectable()
export class AgentCardFactory {
  private readonly a2a: SwitchboardConfig['a2a'];
  private readonly bearerDescription: string;
  /** The OpenID Connect issuers whose tokens are accepted (`auth.oauth`), each a scheme of the cards. */
  private readonly issuers: { name: string; url: string; scopes: string[] }[];

  constructor(
    config: ConfigService<SwitchboardConfig, true>,
    private readonly agents: AgentRegistry,
    private readonly catalog: LiveCatalog,
  ) {
    this.a2a = config.get('a2a', { infer: true });
    const auth = config.get('auth', { infer: true });
    this.issuers = (auth.oauth?.issuers ?? []).map(({ issuer, scopes }) => ({
      name: `oidc-${new URL(issuer).host}`,
      url: `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`,
      scopes,
    }));
    this.bearerDescription =
      this.issuers.length > 0
        ? 'An API key of this Switchboard, or an access token of one of its issuers'
        : 'An API key of this Switchboard';
  }

  /** Whether callers authenticate, as the catalog's keys (and the issuers) say now: cards made now say so. */
  get authRequired(): boolean {
    return this.catalog.current.keys.length > 0 || this.issuers.length > 0;
  }

  card(agent: AgentProfile, baseUrl: string): AgentCard {
    return this.cardWith(agent, baseUrl, agent.skills);
  }

  /** The card authenticated callers get: the public one with the agent's extended skills; none when it offers none. */
  extendedCard(agent: AgentProfile, baseUrl: string): AgentCard | undefined {
    if (!this.offersExtendedCard(agent)) return undefined;
    return this.cardWith(agent, baseUrl, [...agent.skills, ...agent.extended_skills]);
  }

  /** Without API keys no caller is authenticated, so there is no one to show an extended card to. */
  private offersExtendedCard(agent: AgentProfile): boolean {
    return this.authRequired && agent.extended_skills.length > 0;
  }

  private cardWith(agent: AgentProfile, baseUrl: string, skills: AgentProfile['skills']): AgentCard {
    const { jsonRpc, rest } = this.urls(agent, baseUrl);
    const versions = this.a2a.legacy_compat
      ? [A2A_PROTOCOL_VERSION, A2A_LEGACY_PROTOCOL_VERSION]
      : [A2A_PROTOCOL_VERSION];
    const bindings: [string, string][] = [
      [JSONRPC, jsonRpc],
      [HTTP_JSON, rest],
    ];
    return AgentCard.fromJSON({
      name: agent.name,
      description: agent.description,
      version: agent.version,
      provider: { organization: 'Switchboard', url: baseUrl },
      supportedInterfaces: [
        ...versions.flatMap((protocolVersion) =>
          bindings.map(([protocolBinding, url]) => ({ url, protocolBinding, protocolVersion })),
        ),
        ...this.grpcInterfaces(agent, baseUrl),
      ],
      capabilities: {
        streaming: true,
        pushNotifications: true,
        ...(this.offersExtendedCard(agent) && { extendedAgentCard: true }),
      },
      securitySchemes: this.authRequired
        ? {
            [BEARER]: { httpAuthSecurityScheme: { scheme: 'Bearer', description: this.bearerDescription } },
            ...Object.fromEntries(
              this.issuers.map(({ name, url }) => [
                name,
                { openIdConnectSecurityScheme: { openIdConnectUrl: url, description: ISSUER_DESCRIPTION } },
              ]),
            ),
          }
        : {},
      securityRequirements: this.authRequired
        ? [
            { schemes: { [BEARER]: { list: [] } } },
            ...this.issuers.map(({ name, scopes }) => ({ schemes: { [name]: { list: scopes } } })),
          ]
        : [],
      defaultInputModes: agent.input_modes,
      defaultOutputModes: agent.output_modes,
      skills: skills.map((skill) => ({ ...skill, inputModes: agent.input_modes, outputModes: agent.output_modes })),
    });
  }

  /** The card as served: readable by v1.0 and v0.3 clients alike. */
  document(agent: AgentProfile, baseUrl: string): Record<string, unknown> {
    const card = this.card(agent, baseUrl);
    // Protobuf JSON leaves out empty lists, but both versions' schemas require these.
    const current = {
      skills: [],
      defaultInputModes: card.defaultInputModes,
      defaultOutputModes: card.defaultOutputModes,
      ...(AgentCard.toJSON(card) as Record<string, unknown>),
    };
    const { jsonRpc, rest } = this.urls(agent, baseUrl);
    if (!this.a2a.legacy_compat) return current;
    return {
      ...current,
      protocolVersion: LEGACY_CARD_VERSION,
      ...(this.offersExtendedCard(agent) && { supportsAuthenticatedExtendedCard: true }),
      url: jsonRpc,
      preferredTransport: JSONRPC,
      additionalInterfaces: [
        { url: jsonRpc, transport: JSONRPC },
        { url: rest, transport: HTTP_JSON },
        ...this.grpcInterfaces(agent, baseUrl)
          .filter(({ protocolVersion }) => protocolVersion === A2A_LEGACY_PROTOCOL_VERSION)
          .map(({ url }) => ({ url, transport: GRPC })),
      ],
      ...(this.authRequired && {
        securitySchemes: {
          [BEARER]: {
            type: 'http',
            scheme: 'bearer',
            description: this.bearerDescription,
            httpAuthSecurityScheme: { scheme: 'Bearer', description: this.bearerDescription },
          },
          ...Object.fromEntries(
            this.issuers.map(({ name, url }) => [
              name,
              {
                type: 'openIdConnect',
                openIdConnectUrl: url,
                description: ISSUER_DESCRIPTION,
                openIdConnectSecurityScheme: { openIdConnectUrl: url, description: ISSUER_DESCRIPTION },
              },
            ]),
          ),
        },
        security: [{ [BEARER]: [] }, ...this.issuers.map(({ name, scopes }) => ({ [name]: scopes }))],
      }),
    };
  }

  /**
   * The gRPC interfaces, when gRPC is on: v1.0 for every agent, which its requests name in `tenant`;
   * v0.3, whose requests have no tenant, for the default agent alone.
   */
  private grpcInterfaces(
    agent: AgentProfile,
    baseUrl: string,
  ): { url: string; protocolBinding: string; protocolVersion: string; tenant?: string }[] {
    const url = grpcAddress(this.a2a.grpc, baseUrl);
    if (url === undefined) return [];
    const current = { url, protocolBinding: GRPC, protocolVersion: A2A_PROTOCOL_VERSION, tenant: agent.name };
    const legacy = this.a2a.legacy_compat && agent.name === this.agents.defaultAgentName;
    return legacy ? [current, { url, protocolBinding: GRPC, protocolVersion: A2A_LEGACY_PROTOCOL_VERSION }] : [current];
  }

  private urls(agent: AgentProfile, baseUrl: string): { jsonRpc: string; rest: string } {
    const base = baseUrl.replace(/\/+$/, '');
    return {
      jsonRpc: `${base}${this.a2a.listen_path}/agents/${agent.name}`,
      rest: `${base}${this.a2a.rest_path}/agents/${agent.name}`,
    };
  }
}
