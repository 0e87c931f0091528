/** Checks rendered manifests against the Kubernetes OpenAPI schemas (kubernetes-models), in a child process: see validate-manifests.mjs. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Manifest } from './helm';

/** Every schema violation, as "Kind/name: /path message"; empty when all manifests are valid. */
export function schemaProblems(manifests: Manifest[]): string[] {
  const run = spawnSync(process.execPath, [join(__dirname, 'validate-manifests.mjs')], {
    input: JSON.stringify(manifests),
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`validate-manifests.mjs failed:\n${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}
