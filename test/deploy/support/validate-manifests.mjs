// Validates Kubernetes manifests against the OpenAPI schemas compiled into `kubernetes-models` (and
// the CRDs' of prometheus-operator and KEDA in `@kubernetes-models/prometheus-operator` and
// `@kubernetes-models/keda`). Reads a JSON array of manifests on stdin, prints a JSON array of
// problems ("Kind/name: /path message"), empty when all pass. A separate process because these
// packages are ESM only, which Jest's CommonJS runtime cannot load; kubernetes-models.ts runs it.
// The upstream schemas do not forbid unknown fields, so a misspelled field is not caught here.
const MODEL_PACKAGES = ['kubernetes-models', '@kubernetes-models/prometheus-operator', '@kubernetes-models/keda'];

async function modelClass(apiVersion, kind) {
  for (const pkg of MODEL_PACKAGES) {
    try {
      const module = await import(`${pkg}/${apiVersion}`);
      if (module[kind]) return module[kind];
    } catch (error) {
      if (error.code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED' && error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    }
  }
  return undefined;
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const problems = [];
for (const manifest of JSON.parse(input)) {
  const where = `${manifest.kind}/${manifest.metadata?.name}`;
  const Model = await modelClass(manifest.apiVersion, manifest.kind);
  if (!Model) {
    problems.push(`${where}: no schema for ${manifest.apiVersion} ${manifest.kind}`);
    continue;
  }
  try {
    new Model(manifest).validate();
  } catch (error) {
    const details = error.errors?.map((e) => `${e.instancePath || '/'} ${e.message}`) ?? [error.message];
    for (const detail of details) problems.push(`${where}: ${detail}`);
  }
}
process.stdout.write(JSON.stringify(problems));
