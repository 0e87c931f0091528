/** Discovery of external A2A agents, as `GET /api/a2a/agents` shows it, against real agent processes. */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { freePort } from '../support/free-port';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { bearer, startTestApp, testConfig } from '../support/test-app';
import { killAllPeers, type PeerAgent, startPeer, startPeers } from './support/peer-process';

const TOKEN = 'peer-token-0123456789';
const API_KEY = 'peer-api-key-0123456789';

interface AgentView {
  name: string;
  url: string;
  auth?: unknown;
  headers: Record<string, string>;
  status: {
    state: string;
    error?: string;
    interface?: { url: string; binding: string; protocol_version: string };
    card_url?: string;
  };
  card?: { name: string; streaming: boolean; skills: { id: string }[] };
}

let app: NestFastifyApplication;
let url: string;
let peers: Record<
  'v1' | 'rest' | 'v03' | 'bearer' | 'apiKey' | 'legacyPath' | 'garbage' | 'oversized' | 'missing' | 'metadata',
  PeerAgent
>;
let latePort: number;
let late: PeerAgent | undefined;

async function agents(): Promise<Record<string, AgentView>> {
  const response = await fetch(`${url}/api/a2a/agents`, { headers: bearer() });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { agents: AgentView[]; total: number };
  return Object.fromEntries(body.agents.map((agent) => [agent.name, agent]));
}

async function settled(): Promise<Record<string, AgentView>> {
  return eventually(agents, (all) =>
    Object.values(all).every(
      (agent) =>
        agent.status.state !== 'discovering' &&
        (agent.name === 'late' || agent.status.state !== 'retrying' || !!agent.status.error),
    ),
  );
}

beforeAll(async () => {
  const [v1, rest, v03, bearerPeer, apiKey, legacyPath, garbage, oversized, missing, metadata] = await startPeers([
    { mode: 'v1' },
    { mode: 'v1-rest', streaming: false },
    { mode: 'v03' },
    { mode: 'v1', auth: { bearer: TOKEN } },
    { mode: 'v1', auth: { apiKey: { header: 'X-API-Key', value: API_KEY } } },
    { mode: 'v1', cardPath: '/.well-known/agent.json' },
    { mode: 'v1', card: 'garbage' },
    { mode: 'v1', card: 'oversized' },
    { mode: 'v1', card: 'missing-fields' },
    { mode: 'v1', card: 'metadata-url' },
  ]);
  peers = { v1, rest, v03, bearer: bearerPeer, apiKey, legacyPath, garbage, oversized, missing, metadata };
  latePort = await freePort();
  const entry = (name: string, peer: { url: string }, extra = '') =>
    `[[a2a.external_agents]]\nname = "${name}"\nurl = "${peer.url}"\n${extra}\n`;
  const config = writeConfigFile(
    [
      '[outbound]\nallow_hosts = ["127.0.0.1"]',
      '[a2a.client]\ndiscovery_retry_base_ms = 100\ndiscovery_retry_max_ms = 300',
      entry('v1', v1, 'headers = { "X-Trace" = "${TRACE_HEADER}" }'),
      entry('rest', rest),
      entry('v03', v03),
      entry('bearer', bearerPeer, 'auth = { type = "bearer", token = "${PEER_TOKEN}" }'),
      entry('api-key', apiKey, 'auth = { type = "api_key", header = "X-API-Key", value = "${PEER_API_KEY}" }'),
      entry('legacy-path', legacyPath),
      entry('garbage', garbage),
      entry('oversized', oversized),
      entry('missing', missing),
      entry('metadata', metadata),
      entry('late', { url: `http://127.0.0.1:${latePort}` }),
    ].join('\n'),
  );
  ({ app, url } = await startTestApp(
    testConfig({ SWITCHBOARD_CONFIG: config, PEER_TOKEN: TOKEN, PEER_API_KEY: API_KEY, TRACE_HEADER: 'trace-secret' }),
  ));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await late?.kill();
  await killAllPeers();
});

describe('GET /api/a2a/agents', () => {
  it('needs an API key', async () => {
    expect((await fetch(`${url}/api/a2a/agents`)).status).toBe(401);
  });

  it('shows each agent ready with the interface and protocol version its card offers', async () => {
    const all = await settled();
    expect(all.v1.status).toMatchObject({
      state: 'ready',
      interface: { url: `${peers.v1.url}/a2a/jsonrpc`, binding: 'JSONRPC', protocol_version: '1.0' },
    });
    expect(all.v1.card).toMatchObject({ name: expect.any(String), streaming: true });
    expect(all.rest.status).toMatchObject({
      state: 'ready',
      interface: { binding: 'HTTP+JSON', protocol_version: '1.0' },
    });
    expect(all.rest.card?.streaming).toBe(false);
    expect(all.v03.status).toMatchObject({
      state: 'ready',
      interface: { binding: 'JSONRPC', protocol_version: '0.3.0' },
    });
  });

  it('presents the configured credentials, headers and its User-Agent, and shows none of their values', async () => {
    const all = await settled();
    expect(all.bearer.status.state).toBe('ready');
    expect(all['api-key'].status.state).toBe('ready');
    expect((await peers.bearer.requests()).some((request) => request.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect((await peers.apiKey.requests()).some((request) => request.apiKey === API_KEY)).toBe(true);
    expect((await peers.v1.requests()).every((request) => request.userAgent === 'switchboard/0.1.0')).toBe(true);
    const shown = JSON.stringify(await agents());
    for (const secret of [TOKEN, API_KEY, 'trace-secret']) expect(shown).not.toContain(secret);
    expect(all.v1.headers).toEqual({ 'X-Trace': '[redacted]' });
    expect(all['api-key'].auth).toEqual({ type: 'api_key', header: 'X-API-Key' });
  });

  it('falls back to /.well-known/agent.json when the current card path is not found', async () => {
    const all = await settled();
    expect(all['legacy-path'].status).toMatchObject({
      state: 'ready',
      card_url: `${peers.legacyPath.url}/.well-known/agent.json`,
    });
  });

  it('keeps retrying agents whose card is not JSON, too large or incomplete, saying why', async () => {
    const all = await settled();
    expect(all.garbage.status).toMatchObject({ state: 'retrying', error: expect.stringMatching(/is not JSON/) });
    expect(all.oversized.status).toMatchObject({
      state: 'retrying',
      error: expect.stringMatching(/larger than 1048576 bytes/),
    });
    expect(all.missing.status).toMatchObject({
      state: 'retrying',
      error: expect.stringMatching(/has no "name"|offers no JSONRPC or HTTP\+JSON interface/),
    });
  });

  it('refuses a card whose interface points at a cloud metadata address', async () => {
    const all = await settled();
    expect(all.metadata.status).toMatchObject({
      state: 'refused',
      error: expect.stringMatching(/169\.254\.169\.254.*blocked/),
    });
    expect(all.metadata.status.interface).toBeUndefined();
  });

  it('discovers an agent that comes up after boot, without a restart', async () => {
    expect((await agents()).late.status.state).not.toBe('ready');
    late = await startPeer({ mode: 'v1', port: latePort });
    const all = await eventually(agents, (view) => view.late.status.state === 'ready');
    expect(all.late.status.interface?.url).toBe(`${late.url}/a2a/jsonrpc`);
  });
});
