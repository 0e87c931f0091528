/**
 * CPU per validation, in this process: the CallerAuthenticator of a Switchboard app built here from
 * the same switchboard.toml as the server (so wired as the server wires it), its issuer's keys
 * fetched and cached first, then the mix authenticated one call at a time with process.cpuUsage()
 * around each, so that every microsecond (the event loop's and the crypto thread pool's) goes to
 * the credential that spent it.
 */
import type { INestApplication } from '@nestjs/common';
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from 'jose';
import { createHttpApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/config.loader';
import { CallerAuthenticator, type CallerVerdict } from '../../src/security/caller-authenticator';
import { BENCH_API_KEY } from '../a2a/servers';
import type { Credential, CredentialKind } from './credentials';

export interface CpuSpent {
  calls: number;
  cpuMicros: number;
}

export interface ValidationCpu {
  /** By credential label, in the order first met. */
  perLabel: Map<string, CpuSpent & { kind: CredentialKind }>;
  perKind: Map<CredentialKind, CpuSpent>;
  /** CPU of the whole measured loop per call, measurement included. */
  loopMicrosPerCall: number;
  /** Calls whose verdict was not the one their credential must get. */
  mismatches: number;
  /** jose's jwtVerify alone on a valid token against the issuer's keys held locally: the library's share. */
  joseMicros: number;
}

const statusOf = (verdict: CallerVerdict) =>
  verdict.kind === 'valid' ? 200 : verdict.kind === 'insufficient_scope' ? 403 : 401;

/** Switchboard, not listening, configured by `configFile` with the bench's API key; `close()` it when done. */
export async function inProcessApp(configFile: string): Promise<INestApplication> {
  const { config } = loadConfig({
    SWITCHBOARD_CONFIG: configFile,
    SWITCHBOARD_API_KEYS: BENCH_API_KEY,
    LOG_LEVEL: 'silent',
  });
  const app = await createHttpApp(config);
  await app.init();
  return app;
}

async function authenticateAll(
  authenticator: CallerAuthenticator,
  sequence: Credential[],
  perLabel?: ValidationCpu['perLabel'],
): Promise<number> {
  let mismatches = 0;
  for (const credential of sequence) {
    const before = process.cpuUsage();
    // A new request object each time: the authenticator keeps one verdict per request.
    const verdict = await authenticator.authenticate({ headers: { authorization: credential.authorization } });
    const { user, system } = process.cpuUsage(before);
    if (perLabel) {
      const entry = perLabel.get(credential.label) ?? { kind: credential.kind, calls: 0, cpuMicros: 0 };
      entry.calls++;
      entry.cpuMicros += user + system;
      perLabel.set(credential.label, entry);
    }
    if (statusOf(verdict) !== credential.expected) mismatches++;
  }
  return mismatches;
}

/** CPU per call of `call`, over `calls` calls after as many unmeasured. */
async function cpuMicrosPerCall(calls: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < calls; i++) await call();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await call();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / calls;
}

/**
 * Warms up (the keys fetched, V8's optimizing compiler done) on `warmUp`, then measures `sequence`;
 * then jose alone on `validToken`, checked as the verifier checks it.
 */
export async function measureValidationCpu(
  app: INestApplication,
  warmUp: Credential[],
  sequence: Credential[],
  validToken: string,
): Promise<ValidationCpu> {
  const authenticator = app.get(CallerAuthenticator);
  await authenticateAll(authenticator, warmUp);
  const perLabel: ValidationCpu['perLabel'] = new Map();
  const before = process.cpuUsage();
  const mismatches = await authenticateAll(authenticator, sequence, perLabel);
  const { user, system } = process.cpuUsage(before);
  const perKind = new Map<CredentialKind, CpuSpent>();
  for (const { kind, calls, cpuMicros } of perLabel.values()) {
    const total = perKind.get(kind) ?? { calls: 0, cpuMicros: 0 };
    perKind.set(kind, { calls: total.calls + calls, cpuMicros: total.cpuMicros + cpuMicros });
  }
  const { iss, aud } = decodeJwt(validToken);
  const metadata = (await (await fetch(`${iss}/.well-known/openid-configuration`)).json()) as { jwks_uri: string };
  const keys = createLocalJWKSet((await (await fetch(metadata.jwks_uri)).json()) as JSONWebKeySet);
  const joseMicros = await cpuMicrosPerCall(sequence.length / 2, () =>
    jwtVerify(validToken, keys, { issuer: iss, audience: aud, requiredClaims: ['sub', 'exp'] }),
  );
  return { perLabel, perKind, loopMicrosPerCall: (user + system) / sequence.length, mismatches, joseMicros };
}
