/**
 * Access tokens beside API keys, under load: a real OpenID provider (oidc-provider, as the OAuth
 * tests run it) issues tokens by client credentials to Switchboard embedded, which trusts it in
 * `[auth.oauth]`. First `--requests` GetTask calls (of an unknown task) at POST /a2a over HTTP, each with one credential of a mix
 * (about half valid: provider tokens and the API key; the rest refused: wrong audience, expired,
 * bad signature, untrusted issuer, alg none, unknown kid, garbage, insufficient scope, wrong key),
 * every status checked against its credential's; then CPU per validation in this process, for
 * valid JWTs, invalid JWTs and API keys. Target: under 0.2 ms CPU per validation with cached keys.
 * Usage: npm run bench:tokens -- [--requests 10000] [--connections 50] [--warm-up 2000]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { OidcProvider } from '../../test/support/oidc-provider-process';
import { ensureSwitchboardBuilt } from '../a2a/build';
import { registerCleanup, runBench, sampleUsage } from '../a2a/processes';
import { startEmbedded } from '../a2a/servers';
import {
  buildCredentials,
  mix,
  oauthConfig,
  REQUIRED_SCOPE,
  SHORT_LIVED_SUFFIX,
  UNSCOPED_CLIENT,
  VALID_CLIENTS,
} from './credentials';
import { sendAll } from './http-load';
import { inProcessApp, measureValidationCpu } from './validation-cpu';

const ROUTE = '/a2a';
/** A v1.0 GetTask of a task that does not exist: authenticated, and answered (200, a JSON-RPC error) without touching a store's data. */
const GET_UNKNOWN_TASK = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'GetTask',
  params: { id: 'bench-no-such-task' },
});
const TARGET_MICROS = 200;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '10000' },
      connections: { type: 'string', default: '50' },
      'warm-up': { type: 'string', default: '2000' },
    },
  });
  const [requests, connections, warmUp] = [values.requests, values.connections, values['warm-up']].map(Number);
  console.log(
    `Token bench: GetTask at POST ${ROUTE}, ${requests} requests (after ${warmUp} unmeasured), ${connections} in flight; Node ${process.version}, ${availableParallelism()} cores`,
  );
  await ensureSwitchboardBuilt();

  const provider = await OidcProvider.start({
    clients: [...VALID_CLIENTS, UNSCOPED_CLIENT],
    scopes: [REQUIRED_SCOPE, 'other'],
    shortLived: SHORT_LIVED_SUFFIX,
  });
  registerCleanup(() => provider.stop());
  const config = oauthConfig(provider.issuer);
  const server = await startEmbedded([], config);
  const credentials = await buildCredentials(provider);
  const sequence = mix(credentials, requests);

  await sendAll(server.baseUrl, ROUTE, GET_UNKNOWN_TASK, mix(credentials, warmUp), connections);
  const usage = sampleUsage(server.processes);
  const load = await sendAll(server.baseUrl, ROUTE, GET_UNKNOWN_TASK, sequence, connections);
  const { peakRssMb, cpuSeconds } = usage().get(server.processes[0].name)!;
  await server.stop();

  console.log(
    `\nHTTP: ${load.requests} requests in ${load.seconds.toFixed(2)} s, ${(load.requests / load.seconds).toFixed(0)} req/s, p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms`,
  );
  console.log(
    `by status: ${[...load.byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, n]) => `${status || 'transport error'} ${n}`)
      .join(', ')}`,
  );
  const serverErrors = [...load.byStatus]
    .filter(([status]) => status >= 500 || status === 0)
    .reduce((sum, [, n]) => sum + n, 0);
  console.log(
    `5xx and transport errors: ${serverErrors}; answers not as expected for their credential: ${[...load.mismatches.values()].reduce((a, b) => a + b, 0)}`,
  );
  for (const [what, n] of load.mismatches) console.log(`  MISMATCH ${what}: ${n}`);
  console.log(
    `Switchboard: peak RSS ${peakRssMb.toFixed(0)} MB, ${((1000 * cpuSeconds) / load.requests).toFixed(3)} ms CPU per request`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'bench-tokens-'));
  registerCleanup(async () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'switchboard.toml'), config);
  const app = await inProcessApp(join(dir, 'switchboard.toml'));
  registerCleanup(() => app.close());
  const validToken = credentials.find((c) => c.kind === 'valid JWT')!.authorization.slice('Bearer '.length);
  const cpu = await measureValidationCpu(app, mix(credentials, warmUp), sequence, validToken);
  console.log(
    `\nCPU per validation in process (CallerAuthenticator.authenticate, keys cached), ${sequence.length} calls, one at a time:`,
  );
  for (const [kind, { calls, cpuMicros }] of cpu.perKind) {
    const perCall = cpuMicros / calls;
    console.log(
      `  ${kind.padEnd(12)} ${String(calls).padStart(6)} calls  ${perCall.toFixed(1).padStart(6)} µs CPU each  (target < ${TARGET_MICROS} µs: ${perCall < TARGET_MICROS ? 'met' : 'MISSED'})`,
    );
    for (const [label, spent] of cpu.perLabel)
      if (spent.kind === kind)
        console.log(`      ${label.padEnd(20)} ${(spent.cpuMicros / spent.calls).toFixed(1).padStart(6)} µs`);
  }
  console.log(
    `  whole loop, measurement included: ${cpu.loopMicrosPerCall.toFixed(1)} µs CPU per call; verdicts not as expected: ${cpu.mismatches}`,
  );
  console.log(
    `  for comparison, jose's jwtVerify alone on a valid token, keys held locally: ${cpu.joseMicros.toFixed(1)} µs CPU per call`,
  );
  if (serverErrors > 0 || load.mismatches.size > 0 || cpu.mismatches > 0) process.exitCode = 1;
}

runBench(main);
