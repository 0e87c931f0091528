/**
 * docker/npm.sh, the image builds' npm: behind a TLS-inspecting proxy, npm's own failure says
 * little ("Exit handler never called!"), so the script names ./extra-ca.pem. The proxy is played by
 * a local registry whose certificate nothing trusts, in a directory laid out as the Dockerfile's.
 */
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const SCRIPT = resolve(__dirname, '../../docker/npm.sh');

let registry: Server;
let registryUrl: string;
let certificate: string;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-registry-'));
  certificate = join(dir, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', certificate], { stdio: 'ignore' });
  registry = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(certificate) }, (_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"error":"not found"}');
  });
  await new Promise<void>((listening) => registry.listen(0, '127.0.0.1', listening));
  registryUrl = `https://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise((closed) => registry?.close(closed)));

/** `sh npm.sh install` in a build directory of its own, as in the image's build stage: no CA but extra-ca.pem, no retries. */
function install(withExtraCa: boolean): Promise<{ code: number; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-build-'));
  copyFileSync(SCRIPT, join(dir, 'npm.sh'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'build', version: '1.0.0', dependencies: { 'is-number': '7.0.0' } }));
  if (withExtraCa) copyFileSync(certificate, join(dir, 'extra-ca.pem'));
  // This machine's npm configuration may trust a CA of its own: the build container's has none.
  for (const file of ['globalrc', 'userrc']) writeFileSync(join(dir, file), '');
  const { NODE_EXTRA_CA_CERTS: _machineCa, ...env } = process.env;
  return new Promise((done) => {
    execFile(
      'sh',
      ['npm.sh', 'install', '--ignore-scripts'],
      {
        cwd: dir,
        env: { ...env, npm_config_registry: registryUrl, npm_config_globalconfig: join(dir, 'globalrc'), npm_config_userconfig: join(dir, 'userrc'), npm_config_cache: join(dir, 'cache'), npm_config_fetch_retries: '0' },
      },
      (error, _stdout, stderr) => done({ code: error ? Number(error.code) : 0, stderr }),
    );
  });
}

describe('docker/npm.sh', () => {
  it("names extra-ca.pem when the registry's certificate is not trusted", async () => {
    const { code, stderr } = await install(false);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(new RegExp(`npm install failed: the certificate of ${registryUrl} is not trusted \\([A-Z_]*SELF_SIGNED[A-Z_]*\\); behind a TLS-inspecting proxy, put its CA bundle \\(PEM\\) at \\./extra-ca\\.pem`));
  });

  it('trusts ./extra-ca.pem, and then blames no certificate for a failure', async () => {
    const { code, stderr } = await install(true);
    expect(code).not.toBe(0);
    expect(stderr).not.toContain('not trusted');
    expect(stderr).toContain(`npm install failed (exit ${code}), although ${registryUrl} answers`);
  });
});
