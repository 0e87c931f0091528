import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ExternalAgentConfig } from './config.schema';
import { type Environment, resolveReferences } from './variable-references';
import { externalAgentSchema } from './external-agent.schema';
import { SUBAGENT_MANIFEST_SCHEMA, type SubagentManifest } from './subagent-manifest.schema';

const validate = new Ajv2020({ allErrors: true, strict: false }).compile<SubagentManifest>(SUBAGENT_MANIFEST_SCHEMA);
const MANIFESTS_KEY = 'a2a.subagent_manifests';

/**
 * Loads ARDF `subagent@v0.1` manifests into external agents. Each problem (a file that cannot be
 * read or parsed, a field the schema refuses, an unset `${VAR}`) names the file and the field.
 * The manifest is kept as written (references unresolved), to be shown without secrets.
 */
export function loadSubagentManifests(
  patterns: string[],
  baseDir: string,
  env: Environment,
  problems: string[],
): ExternalAgentConfig[] {
  const agents: ExternalAgentConfig[] = [];
  for (const pattern of patterns) {
    const files = expandPattern(resolve(baseDir, pattern));
    if (files.length === 0) problems.push(`${MANIFESTS_KEY}: "${pattern}" matches no file`);
    for (const file of files) {
      const agent = loadManifest(file, env, (problem) => problems.push(`${MANIFESTS_KEY}: ${file}: ${problem}`));
      if (agent) agents.push(agent);
    }
  }
  return agents;
}

function loadManifest(
  file: string,
  env: Environment,
  report: (problem: string) => void,
): ExternalAgentConfig | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return void report(`not a readable JSON file: ${(error as Error).message}`);
  }
  if (!validate(raw)) {
    for (const error of validate.errors ?? []) report(describeSchemaError(error));
    return undefined;
  }
  const referenceProblems: string[] = [];
  const resolved = resolveReferences(raw, [], env, referenceProblems) as SubagentManifest;
  referenceProblems.forEach(report);
  if (referenceProblems.length > 0) return undefined;
  return { ...externalAgentFrom(resolved), manifest: raw };
}

function externalAgentFrom(manifest: SubagentManifest): ExternalAgentConfig {
  const auth = manifest.security?.auth;
  const mtls = manifest.security?.mtls;
  const settings = externalAgentSchema.parse({
    name: manifest.id,
    url: manifest.a2a.agentCardUri,
    card_path: '',
    ...(auth && {
      auth:
        auth.type === 'apiKey'
          ? { type: 'api_key', header: auth.name, value: auth.value }
          : { type: 'bearer', token: auth.token },
    }),
  });
  return {
    ...settings,
    ...(mtls?.enabled && {
      client_certificate: { cert: mtls.clientCert!, key: mtls.clientKey!, ...(mtls.ca && { ca: mtls.ca }) },
    }),
  };
}

/** `/a/b/field: must be ...`, with the allowed values or the missing property where the schema knows them. */
function describeSchemaError(error: ErrorObject): string {
  const field = error.instancePath || '/';
  if (error.keyword === 'required')
    return `${field === '/' ? '' : field}/${(error.params as { missingProperty: string }).missingProperty}: is required`;
  if (error.keyword === 'enum')
    return `${field}: must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
  if (error.keyword === 'const')
    return `${field}: must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
  return `${field}: ${error.message}`;
}

/** A path whose file name may hold `*` and `?`; the directory part is taken as written. */
function expandPattern(path: string): string[] {
  const name = basename(path);
  if (!/[*?]/.test(name)) return existsSync(path) ? [path] : [];
  const dir = dirname(path);
  if (!existsSync(dir)) return [];
  const matcher = new RegExp(
    `^${name
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return readdirSync(dir)
    .filter((entry) => matcher.test(entry))
    .sort()
    .map((entry) => join(dir, entry));
}
