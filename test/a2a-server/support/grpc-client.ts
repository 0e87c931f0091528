import { type Client, ClientFactory, DefaultAgentCardResolver, type CallInterceptor } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import type { ChannelCredentials } from '@grpc/grpc-js';
import { TEST_API_KEY } from '../../support/test-app';

/** Puts the API key in each call's `authorization` metadata, as a gRPC client of a protected server does. */
function bearerMetadata(key: string): CallInterceptor {
  return {
    before: async (args) => {
      args.options = {
        ...args.options,
        serviceParameters: { ...args.options?.serviceParameters, authorization: `Bearer ${key}` },
      };
    },
    after: async () => undefined,
  };
}

/**
 * The SDK's own gRPC client for one agent, discovered from its card (over HTTP, where cards are
 * served) and speaking gRPC to the interface the card lists; `legacy` is its v0.3 compat mode,
 * which only the default agent offers. No key: calls go without credentials. `channel`: TLS, say;
 * plaintext by default.
 */
export function grpcClient(
  baseUrl: string,
  agent: string,
  {
    key = TEST_API_KEY,
    legacy = false,
    channel,
  }: { key?: string | null; legacy?: boolean; channel?: ChannelCredentials } = {},
): Promise<Client> {
  const legacyCompat = { enabled: legacy };
  const factory = new ClientFactory({
    transports: [new GrpcTransportFactory({ legacyCompat, grpcChannelCredentials: channel })],
    preferredTransports: ['GRPC'],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
    clientConfig: key === null ? {} : { interceptors: [bearerMetadata(key)] },
  });
  return factory.createFromUrl(
    baseUrl,
    legacy ? '/.well-known/agent-card.json' : `/a2a/agents/${agent}/agent-card.json`,
  );
}
