/**
 * mTLS to an external agent: its card is served over HTTPS by a server that demands a client
 * certificate signed by its CA. Fixtures (fixtures/mtls): a test CA, a server certificate for
 * 127.0.0.1 and a client certificate, all signed by it and valid for a century.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { writeConfigFile } from '../support/config-file';
import { eventually } from '../support/eventually';
import { bearer, startTestApp, testConfig } from '../support/test-app';

const FIXTURES = join(__dirname, 'fixtures/mtls');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

let server: Server;
let app: NestFastifyApplication;
let url: string;
const clientNames: string[] = [];

interface Status {
  name: string;
  status: { state: string; error?: string };
}

beforeAll(async () => {
  server = createServer(
    {
      key: fixture('server.key'),
      cert: fixture('server.pem'),
      ca: fixture('ca.pem'),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (request, response) => {
      clientNames.push(String((request.socket as TLSSocket).getPeerCertificate().subject.CN));
      const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          name: 'secure',
          description: 'behind mTLS',
          version: '1.0.0',
          supportedInterfaces: [{ url: `${base}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          capabilities: {},
          skills: [],
        }),
      );
    },
  );
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const agentUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = writeConfigFile(`
[outbound]
allow_hosts = ["127.0.0.1"]
[a2a.client]
discovery_retry_base_ms = 100
discovery_retry_max_ms = 200
[[a2a.external_agents]]
name = "with-cert"
url = "${agentUrl}"
tls = { cert_file = "${join(FIXTURES, 'client.pem')}", key_file = "${join(FIXTURES, 'client.key')}", ca_file = "${join(FIXTURES, 'ca.pem')}" }
[[a2a.external_agents]]
name = "without-cert"
url = "${agentUrl}"
`);
  ({ app, url } = await startTestApp(testConfig({ SWITCHBOARD_CONFIG: config })));
});

afterAll(async () => {
  await app?.close();
  server?.close();
});

async function statuses(): Promise<Record<string, Status['status']>> {
  const body = (await (await fetch(`${url}/api/a2a/agents`, { headers: bearer() })).json()) as { agents: Status[] };
  return Object.fromEntries(body.agents.map((agent) => [agent.name, agent.status]));
}

it('presents the client certificate, trusts the configured CA, and reads the card', async () => {
  const all = await eventually(
    statuses,
    (status) => status['with-cert'].state === 'ready' && status['without-cert'].state === 'retrying',
  );
  expect(clientNames).toContain('switchboard');
  expect(all['without-cert'].error).toBeDefined();
});
