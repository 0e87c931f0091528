import { AgentCard, type AgentInterface } from '@a2a-js/sdk';
import { DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { InvalidAgentCardError } from './a2a-client.errors';

export const CARD_PATH = '/.well-known/agent-card.json';
/** Where v0.2-era agents (and the OpenFang and PocketPaw seeds) publish their card. */
export const LEGACY_CARD_PATH = '/.well-known/agent.json';
/** Bindings Switchboard's client speaks, in its order of preference when a card offers both equally. */
export const CLIENT_BINDINGS = ['JSONRPC', 'HTTP+JSON', 'GRPC'] as const;

export interface FetchedCard {
  url: string;
  /** The card as published (v1.0 or v0.3 JSON). */
  document: Record<string, unknown>;
  /** Normalized to the SDK's v1.0 shape; v0.3 interfaces carry protocolVersion "0.3". */
  card: AgentCard;
}

const resolver = new DefaultAgentCardResolver({ legacyCompat: { enabled: true } });

/**
 * Fetches an agent's card from `{url}{cardPath}`, or when no path is configured from the current
 * well-known path and then the older one. A card that is not JSON, is larger than `maxBytes`, or
 * lacks a name or a usable interface is refused with an error saying which.
 */
export async function fetchAgentCard(
  fetchImpl: typeof fetch,
  url: string,
  cardPath: string | undefined,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<FetchedCard> {
  const base = url.replace(/\/+$/, '');
  if (cardPath !== undefined)
    return fetchCardAt(fetchImpl, cardPath === '' ? url : `${base}${cardPath}`, maxBytes, signal);
  try {
    return await fetchCardAt(fetchImpl, `${base}${CARD_PATH}`, maxBytes, signal);
  } catch (error) {
    if (!(error instanceof CardNotFoundError)) throw error;
    return fetchCardAt(fetchImpl, `${base}${LEGACY_CARD_PATH}`, maxBytes, signal);
  }
}

class CardNotFoundError extends InvalidAgentCardError {}

async function fetchCardAt(
  fetchImpl: typeof fetch,
  url: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<FetchedCard> {
  const response = await fetchImpl(url, { headers: { accept: 'application/json' }, signal });
  if (response.status === 404) {
    await response.body?.cancel();
    throw new CardNotFoundError(`no agent card at ${url} (HTTP 404)`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new InvalidAgentCardError(`the agent card at ${url} answered HTTP ${response.status}`);
  }
  const text = await readAtMost(response, maxBytes, url);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new InvalidAgentCardError(`the agent card at ${url} is not JSON`);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document))
    throw new InvalidAgentCardError(`the agent card at ${url} is not a JSON object`);
  return {
    url,
    document: document as Record<string, unknown>,
    card: normalize(document as Record<string, unknown>, url),
  };
}

function normalize(document: Record<string, unknown>, url: string): AgentCard {
  let card: AgentCard;
  try {
    const normalized = resolver.normalizeAgentCard(document);
    // A v1.0 card in plain JSON comes back as it was given; the SDK's own parser fills its defaults.
    card = normalized === (document as unknown) ? AgentCard.fromJSON(document) : normalized;
  } catch (error) {
    throw new InvalidAgentCardError(`the agent card at ${url} could not be read: ${(error as Error).message}`);
  }
  if (!card.name) throw new InvalidAgentCardError(`the agent card at ${url} has no "name"`);
  if (!usableInterface(card)) {
    throw new InvalidAgentCardError(
      `the agent card at ${url} offers no ${CLIENT_BINDINGS.join(' or ')} interface (supportedInterfaces, or v0.3's url)`,
    );
  }
  return card;
}

/**
 * The interface Switchboard talks to: the card's first JSON-RPC, HTTP+JSON or gRPC interface (the order a card lists them in is its preference), taking the
 * v1.0 one of a binding when the card lists it in several protocol versions (as the SDK's factory does).
 */
export function usableInterface(card: AgentCard): AgentInterface | undefined {
  const interfaces = (card.supportedInterfaces ?? []).filter(
    (candidate) =>
      candidate.url && (CLIENT_BINDINGS as readonly string[]).includes(candidate.protocolBinding.toUpperCase()),
  );
  const first = interfaces[0];
  if (!first) return undefined;
  return (
    interfaces.find(
      (candidate) => candidate.protocolBinding === first.protocolBinding && candidate.protocolVersion === '1.0',
    ) ?? first
  );
}

async function readAtMost(response: Response, maxBytes: number, url: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  const tooLarge = () => new InvalidAgentCardError(`the agent card at ${url} is larger than ${maxBytes} bytes`);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader!.cancel();
      throw tooLarge();
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
