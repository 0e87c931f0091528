/**
 * The Helm chart (helm/switchboard), rendered offline: `helm lint --strict`, `helm template` of a
 * trial, a production-like and a secrets-in-values install, every manifest checked against the
 * Kubernetes OpenAPI schemas, and what the chart promises checked on the rendered objects. The
 * rendered config and environment are loaded by Switchboard's own config loader, as a pod would.
 * No cluster runs here: scheduling, image pulls and the stores' start-up are not exercised.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { loadConfig } from '../../src/config/config.loader';
import { configSchema } from '../../src/config/config.schema';
import { assertSafeToListen } from '../../src/security/listen-policy';
import { CHART_DIR, helm, Manifest, renderChart } from './support/helm';
import { schemaProblems } from './support/kubernetes-models';

jest.setTimeout(60_000);

const PRODUCTION_VALUES = join(CHART_DIR, 'ci/production-values.yaml');

/** Recognizable secrets: each must show up in a Secret and nowhere else. */
const SECRETS = {
  apiKey: 'LEAK-API-KEY-0001-abcdef',
  openAiKey: 'LEAK-OPENAI-KEY-abcdef',
  metricsKey: 'LEAK-METRICS-KEY-abcdef',
  databasePassword: 'LEAK-DB-PASSWORD',
  redisPassword: 'LEAK-REDIS-PASSWORD',
};

/** External stores and every secret given in values: the chart creates the Secret, the migration reads a hook Secret. */
const SECRETS_IN_VALUES = {
  secrets: {
    apiKeys: `ops=${SECRETS.apiKey},ci=LEAK-API-KEY-0002-abcdef`,
    env: { OPENAI_API_KEY: SECRETS.openAiKey },
    metricsApiKey: SECRETS.metricsKey,
  },
  postgresql: { deploy: false, externalUrl: `postgresql://switchboard:${SECRETS.databasePassword}@db.internal:5432/switchboard` },
  redis: { deploy: false, externalUrl: `rediss://:${SECRETS.redisPassword}@redis.internal:6380` },
  serviceMonitor: { enabled: true },
  networkPolicy: { enabled: true },
  config: {
    agents: [{ name: 'assistant', executor: { type: 'llm', base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini', api_key_env: 'OPENAI_API_KEY' } }],
    mcp_servers: [{ name: 'tools', transport: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${OPENAI_API_KEY}' } } }],
    outbound: { allow_hosts: ['mcp.example.com'] },
  },
};

/** Trial stores with chosen passwords and keys (the defaults generate them). */
const TRIAL_WITH_SECRETS = {
  secrets: { apiKeys: `ops=${SECRETS.apiKey}` },
  postgresql: { auth: { password: SECRETS.databasePassword } },
  redis: { auth: { password: SECRETS.redisPassword } },
};

/** What the production values' existingSecret would hold: stands in for it when the config is loaded. */
const EXISTING_SECRET: Record<string, string> = {
  'api-keys': 'ops=existing-key-0123456789,ci=existing-key-9876543210',
  'database-url': 'postgresql://switchboard:pw@db.internal:5432/switchboard',
  'redis-url': 'rediss://:pw@redis.internal:6380',
  'metrics-api-key': 'existing-metrics-key-0123456789',
  OPENAI_API_KEY: 'sk-existing',
};

let workDir: string;
const installs: Record<'trial' | 'production' | 'secretsInValues', Manifest[]> = {} as never;

function valuesFile(name: string, values: object): string {
  const file = join(workDir, `${name}.yaml`);
  writeFileSync(file, stringifyYaml(values));
  return file;
}

function find(manifests: Manifest[], kind: string, name?: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (!found) throw new Error(`no ${kind}${name ? ` ${name}` : ''} among ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
  return found;
}

const deployment = (manifests: Manifest[], component: 'api' | 'worker') => find(manifests, 'Deployment', `switchboard-${component}`);
const podSpec = (workload: Manifest) => workload.spec.template.spec;
const firstContainer = (workload: Manifest) => podSpec(workload).containers[0];
const annotation = (manifest: Manifest, key: string) => manifest.metadata.annotations?.[key];
const envVar = (container: any, name: string) => container.env.find((e: any) => e.name === name);

function secretData(manifest: Manifest): Record<string, string> {
  return Object.fromEntries(Object.entries(manifest.data ?? {}).map(([key, value]) => [key, Buffer.from(value as string, 'base64').toString('utf8')]));
}

function failedRender(...args: string[]): string {
  const result = helm('template', 'switchboard', CHART_DIR, '--namespace', 'apps', ...args);
  expect(result.status).not.toBe(0);
  return result.stderr;
}

/**
 * The environment a container starts with: values as given, secretKeyRefs from the rendered Secrets
 * (or `external`, standing in for a Secret the user manages), `$(VAR)` expanded as the kubelet does.
 */
function containerEnv(manifests: Manifest[], container: any, external: Record<string, string>): Record<string, string> {
  const secrets = new Map(manifests.filter((m) => m.kind === 'Secret').map((m) => [m.metadata.name, secretData(m)]));
  const env: Record<string, string> = {};
  for (const { name, value, valueFrom } of container.env) {
    if (valueFrom) {
      const { name: secret, key } = valueFrom.secretKeyRef;
      const found = (secrets.get(secret) ?? external)[key];
      if (found === undefined) throw new Error(`${name}: secret ${secret} has no key ${key}`);
      env[name] = found;
    } else {
      env[name] = (value as string).replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, ref: string) => env[ref] ?? whole);
    }
  }
  return env;
}

beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'switchboard-helm-'));
  installs.trial = renderChart();
  installs.production = renderChart('-f', PRODUCTION_VALUES);
  installs.secretsInValues = renderChart('-f', valuesFile('secrets-in-values', SECRETS_IN_VALUES));
});

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('the switchboard chart', () => {
  it('passes helm lint --strict with the default and the production values', () => {
    for (const args of [[], ['-f', PRODUCTION_VALUES]]) {
      const result = helm('lint', '--strict', CHART_DIR, ...args);
      expect({ args, status: result.status, output: result.stdout + result.stderr }).toMatchObject({ status: 0 });
    }
  });

  it('renders only manifests valid against the Kubernetes schemas (and the ServiceMonitor CRD)', () => {
    const all = Object.values(installs).flat();
    expect(schemaProblems(all)).toEqual([]);
    expect(new Set(all.map((m) => m.kind))).toEqual(
      new Set(['ConfigMap', 'Secret', 'ServiceAccount', 'Service', 'Deployment', 'StatefulSet', 'Job', 'Ingress', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'NetworkPolicy', 'ServiceMonitor']),
    );
  });

  it('catches a schema violation (the check is live)', () => {
    const service = structuredClone(find(installs.trial, 'Service', 'switchboard'));
    service.spec.ports[0].port = 'eighty';
    expect(schemaProblems([service])).toEqual([expect.stringContaining('Service/switchboard: /spec/ports/0/port')]);
  });

  describe.each(['trial', 'production', 'secretsInValues'] as const)('the %s install', (install) => {
    it.each(['api', 'worker'] as const)('probes the %s: startup and liveness on /healthz, readiness on /readyz, on a port it listens on', (component) => {
      const container = firstContainer(deployment(installs[install], component));
      expect(container.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(container.startupProbe.failureThreshold * container.startupProbe.periodSeconds).toBeGreaterThanOrEqual(30);
      // A worker serves its probes only on this port.
      if (component === 'worker') expect(envVar(container, 'SWITCHBOARD_WORKER_HEALTH_PORT')).toEqual({ name: 'SWITCHBOARD_WORKER_HEALTH_PORT', value: '8080' });
      expect(envVar(container, 'HOST').value).toBe('0.0.0.0');
    });

    it('runs every Switchboard container as uid 10001, read-only, without privileges, with /tmp writable', () => {
      const workloads = installs[install].filter((m) => ['Deployment', 'Job'].includes(m.kind));
      expect(workloads.map((m) => m.metadata.name).sort()).toEqual(['switchboard-api', 'switchboard-migrate', 'switchboard-worker']);
      for (const workload of workloads) {
        const spec = podSpec(workload);
        expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } });
        expect(spec.automountServiceAccountToken).toBe(false);
        for (const container of spec.containers) {
          expect(container.securityContext).toEqual({
            runAsNonRoot: true,
            runAsUser: 10001,
            runAsGroup: 10001,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          });
          const tmp = container.volumeMounts.find((mount: any) => mount.mountPath === '/tmp');
          expect(spec.volumes.find((volume: any) => volume.name === tmp.name)).toMatchObject({ emptyDir: {} });
          expect(container.resources.requests).toBeDefined();
        }
      }
    });

    it('gives each pod the drain time plus 5 s to stop, and the config to read', () => {
      for (const [component, grace] of [['api', 35], ['worker', 30]] as const) {
        const workload = deployment(installs[install], component);
        expect(podSpec(workload).terminationGracePeriodSeconds).toBe(grace);
        expect(envVar(firstContainer(workload), 'SWITCHBOARD_CONFIG').value).toBe('/etc/switchboard/switchboard.toml');
        expect(podSpec(workload).volumes).toContainEqual({ name: 'config', configMap: { name: 'switchboard' } });
      }
      expect(firstContainer(deployment(installs[install], 'api')).lifecycle.preStop.exec.command).toEqual(['sleep', '5']);
    });

    it("starts both commands with a config Switchboard's own loader accepts", () => {
      const configMap = find(installs[install], 'ConfigMap', 'switchboard');
      const file = join(workDir, `${install}.toml`);
      writeFileSync(file, configMap.data['switchboard.toml']);
      for (const component of ['api', 'worker'] as const) {
        const container = firstContainer(deployment(installs[install], component));
        expect(container.args).toEqual([component === 'api' ? 'serve' : 'worker']);
        const env = { ...containerEnv(installs[install], container, EXISTING_SECRET), SWITCHBOARD_CONFIG: file };
        const { config } = loadConfig(env);
        expect(config.server).toMatchObject({ host: '0.0.0.0', port: 8080 });
        expect(config.database.url).toMatch(/^postgresql:\/\//);
        expect(config.redis.url).toMatch(/^rediss?:\/\//);
        if (component === 'api') {
          expect(config.queue.worker_in_api).toBe(false);
          expect(config.auth.api_keys.length).toBeGreaterThan(0);
          expect(() => assertSafeToListen(config)).not.toThrow();
        } else {
          expect(config.queue.health_port).toBe(8080);
        }
      }
    });
  });

  describe('the migration Job', () => {
    const job = (install: Manifest[]) => find(install, 'Job', 'switchboard-migrate');
    const weight = (manifest: Manifest) => Number(annotation(manifest, 'helm.sh/hook-weight') ?? 0);

    it('runs `switchboard migrate` before install and upgrade, and is replaced each time and removed once it succeeds', () => {
      const migrate = job(installs.production);
      expect(firstContainer(migrate).args).toEqual(['migrate']);
      expect(annotation(migrate, 'helm.sh/hook')).toBe('pre-install,pre-upgrade');
      expect(annotation(migrate, 'helm.sh/hook-delete-policy')).toBe('before-hook-creation,hook-succeeded');
      expect(podSpec(migrate).restartPolicy).toBe('OnFailure');
      expect(envVar(firstContainer(migrate), 'DATABASE_URL').valueFrom.secretKeyRef).toEqual({ name: 'switchboard-secrets', key: 'database-url' });
    });

    it('comes before the Deployments: they and the objects they read are release objects, not hooks', () => {
      for (const install of Object.values(installs)) {
        const hooks = install.filter((m) => annotation(m, 'helm.sh/hook'));
        expect(hooks.map((m) => `${m.kind}/${m.metadata.name}`)).not.toContainEqual(expect.stringMatching(/^(Deployment|ConfigMap|ServiceAccount)\//));
        expect(hooks.filter((m) => m.kind === 'Secret').map((m) => m.metadata.name)).not.toContain('switchboard');
      }
    });

    it('reads DATABASE_URL from a hook Secret created before it when the URL is given in values', () => {
      const migrate = job(installs.secretsInValues);
      const ref = envVar(firstContainer(migrate), 'DATABASE_URL').valueFrom.secretKeyRef;
      const hookSecret = find(installs.secretsInValues, 'Secret', ref.name);
      expect(annotation(hookSecret, 'helm.sh/hook')).toBe(annotation(migrate, 'helm.sh/hook'));
      expect(weight(hookSecret)).toBeLessThan(weight(migrate));
      expect(annotation(hookSecret, 'helm.sh/hook-delete-policy')).toBe('before-hook-creation,hook-succeeded');
      expect(secretData(hookSecret)[ref.key]).toBe(SECRETS_IN_VALUES.postgresql.externalUrl);
    });

    it('runs after the install when the chart deploys Postgres (which does not exist before it), still before upgrades', () => {
      const migrate = job(installs.trial);
      expect(annotation(migrate, 'helm.sh/hook')).toBe('post-install,pre-upgrade');
      expect(envVar(firstContainer(migrate), 'DATABASE_URL').valueFrom.secretKeyRef).toEqual({ name: 'switchboard', key: 'database-url' });
    });

    it('also runs in an init container of every pod when the chart deploys Postgres: the post-install Job waits for ready pods, and none is ready on an unmigrated database', () => {
      for (const name of ['switchboard-api', 'switchboard-worker']) {
        const [init, ...others] = podSpec(find(installs.trial, 'Deployment', name)).initContainers;
        expect(others).toEqual([]);
        expect(init.args).toEqual(['migrate']);
        expect(envVar(init, 'DATABASE_URL').valueFrom.secretKeyRef).toEqual({ name: 'switchboard', key: 'database-url' });
        expect(init.securityContext).toEqual(firstContainer(find(installs.trial, 'Deployment', name)).securityContext);
      }
      expect(podSpec(find(installs.production, 'Deployment', 'switchboard-api')).initContainers).toBeUndefined();
    });

    it('does not use the ServiceAccount the chart creates, which does not exist yet before an install', () => {
      expect(podSpec(job(installs.production)).serviceAccountName).toBeUndefined();
      const ownAccount = renderChart('-f', PRODUCTION_VALUES, '--set', 'serviceAccount.create=false', '--set', 'serviceAccount.name=db-access');
      expect(podSpec(job(ownAccount)).serviceAccountName).toBe('db-access');
    });
  });

  describe('secrets', () => {
    it('appear only in Secrets: never in a ConfigMap, an env value or an annotation', () => {
      const trialWithSecrets = renderChart('-f', valuesFile('trial-with-secrets', TRIAL_WITH_SECRETS));
      for (const install of [installs.secretsInValues, trialWithSecrets]) {
        const inSecrets = install
          .filter((m) => m.kind === 'Secret')
          .flatMap((m) => Object.values(secretData(m)))
          .join('\n');
        for (const secret of Object.values(SECRETS)) {
          const elsewhere = install.filter((m) => m.kind !== 'Secret' && JSON.stringify(m).includes(secret));
          expect({ secret, elsewhere: elsewhere.map((m) => `${m.kind}/${m.metadata.name}`) }).toEqual({ secret, elsewhere: [] });
          if (install === installs.secretsInValues || [SECRETS.apiKey, SECRETS.databasePassword, SECRETS.redisPassword].includes(secret)) {
            expect(inSecrets).toContain(secret);
          }
        }
      }
      // The config refers to the secret by name; the value is in the environment.
      expect(find(installs.secretsInValues, 'ConfigMap', 'switchboard').data['switchboard.toml']).toContain('Bearer ${OPENAI_API_KEY}');
    });

    it('come from existingSecret in production, and the chart creates no Secret', () => {
      expect(installs.production.filter((m) => m.kind === 'Secret')).toEqual([]);
      const api = firstContainer(deployment(installs.production, 'api'));
      const refs = api.env.filter((e: any) => e.valueFrom).map((e: any) => [e.name, e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.key]);
      expect(refs).toEqual([
        ['DATABASE_URL', 'switchboard-secrets', 'database-url'],
        ['REDIS_URL', 'switchboard-secrets', 'redis-url'],
        ['SWITCHBOARD_CONFIGURED_API_KEYS', 'switchboard-secrets', 'api-keys'],
        ['SWITCHBOARD_METRICS_API_KEY', 'switchboard-secrets', 'metrics-api-key'],
        ['OPENAI_API_KEY', 'switchboard-secrets', 'OPENAI_API_KEY'],
      ]);
    });

    it('let Prometheus scrape /metrics with a key the API accepts', () => {
      for (const install of [installs.production, installs.secretsInValues]) {
        const endpoint = find(install, 'ServiceMonitor').spec.endpoints[0];
        expect(endpoint).toMatchObject({ port: 'http', path: '/metrics' });
        const { name, key } = endpoint.authorization.credentials;
        const secret = install.find((m) => m.kind === 'Secret' && m.metadata.name === name);
        const metricsKey = secret ? secretData(secret)[key] : EXISTING_SECRET[key];
        const env = containerEnv(install, firstContainer(deployment(install, 'api')), EXISTING_SECRET);
        expect(env.SWITCHBOARD_API_KEYS.split(',')).toContain(`prometheus=${metricsKey}`);
        const service = find(install, 'Service', 'switchboard');
        expect(service.metadata.labels).toMatchObject(find(install, 'ServiceMonitor').spec.selector.matchLabels);
      }
    });
  });

  describe('rollouts', () => {
    const checksums = (install: Manifest[]) =>
      (['api', 'worker'] as const).map((c) => [annotation(deployment(install, c).spec.template, 'checksum/config'), annotation(deployment(install, c).spec.template, 'checksum/secret')]);
    // Pod templates keep their annotations under spec.template.metadata.
    const podAnnotation = (install: Manifest[], component: 'api' | 'worker', key: string) => deployment(install, component).spec.template.metadata.annotations[key];

    it('roll the pods when the config changes, and only then', () => {
      const base = renderChart('--set', 'secrets.apiKeys=ops=fixed-key-0123456789');
      const same = renderChart('--set', 'secrets.apiKeys=ops=fixed-key-0123456789');
      const debug = renderChart('--set', 'secrets.apiKeys=ops=fixed-key-0123456789', '--set', 'config.log.level=debug');
      for (const component of ['api', 'worker'] as const) {
        expect(podAnnotation(same, component, 'checksum/config')).toBe(podAnnotation(base, component, 'checksum/config'));
        expect(podAnnotation(debug, component, 'checksum/config')).not.toBe(podAnnotation(base, component, 'checksum/config'));
        expect(podAnnotation(debug, component, 'checksum/secret')).toBe(podAnnotation(base, component, 'checksum/secret'));
      }
      expect(checksums(base)).toEqual(checksums(same));
    });

    it('roll the pods when a secret in values changes', () => {
      const before = renderChart('--set', 'secrets.apiKeys=ops=fixed-key-0123456789');
      const after = renderChart('--set', 'secrets.apiKeys=ops=other-key-0123456789');
      for (const component of ['api', 'worker'] as const) {
        expect(podAnnotation(after, component, 'checksum/secret')).not.toBe(podAnnotation(before, component, 'checksum/secret'));
      }
    });

    it('follow the drain time: server.shutdown_timeout_secs sets terminationGracePeriodSeconds', () => {
      const slow = renderChart('--set', 'config.server.shutdown_timeout_secs=60');
      expect(podSpec(deployment(slow, 'api')).terminationGracePeriodSeconds).toBe(70);
      expect(podSpec(deployment(slow, 'worker')).terminationGracePeriodSeconds).toBe(65);
    });
  });

  describe('values', () => {
    it.each([
      [['--set', 'api.replicaCount=two'], "at '/api/replicaCount': got string, want integer"],
      [['--set', 'config.log.level=verbose'], "at '/config/log/level': value must be one of"],
      [['--set', 'config.sever.port=8080'], "additional properties 'sever' not allowed"],
      [['--set', 'image.pullPolicy=Sometimes'], "at '/image/pullPolicy'"],
      [['--set', 'worker.replicas=2'], "additional properties 'replicas' not allowed"],
      [['--set', 'postgresql.auth.password=p@ss/word'], "at '/postgresql/auth/password'"],
      [['--set', 'secrets.apiKeys=ops=too-short'], "at '/secrets/apiKeys'"],
    ])('values.schema.json refuses %j', (args, message) => {
      expect(failedRender(...args)).toContain(message);
    });

    it('are checked by helm install too', () => {
      const result = helm('install', 'switchboard', CHART_DIR, '--dry-run=client', '--set', 'api.replicaCount=two');
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain("at '/api/replicaCount'");
    });

    it('fail when neither an in-chart store nor an external URL is given, naming what to set', () => {
      expect(failedRender('--set', 'postgresql.deploy=false')).toContain(
        'postgresql: Switchboard needs Postgres: set postgresql.externalUrl (production), put database-url in secrets.existingSecret, or set postgresql.deploy=true',
      );
      expect(failedRender('--set', 'redis.deploy=false')).toContain('redis: Switchboard needs Redis: set redis.externalUrl');
      const both = failedRender('--set', 'postgresql.deploy=false', '--set', 'redis.deploy=false');
      expect(both).toContain('Switchboard needs Postgres');
      expect(both).toContain('Switchboard needs Redis');
    });

    it('fail on combinations that cannot both hold', () => {
      expect(failedRender('--set', 'postgresql.externalUrl=postgresql://db/x')).toContain('postgresql: set either postgresql.deploy or postgresql.externalUrl, not both');
      expect(failedRender('--set', 'secrets.existingSecret=mine', '--set', 'secrets.apiKeys=ops=k-0123456789abcdef')).toContain('secrets.apiKeys: with secrets.existingSecret');
      expect(failedRender('--set', 'config.server.host=127.0.0.1')).toContain('config.server.host: set by the chart');
      expect(failedRender('--set', 'config.database.url=postgresql://db/x')).toContain('config.database.url: set by the chart; use postgresql.externalUrl');
      expect(failedRender('--set', 'secrets.env.DATABASE_URL=x')).toContain('DATABASE_URL: the chart sets this environment variable itself');
      expect(failedRender('--set', 'api.autoscaling.enabled=true', '--set', 'api.autoscaling.minReplicas=5', '--set', 'api.autoscaling.maxReplicas=2')).toContain(
        'api.autoscaling: minReplicas (5) is above maxReplicas (2)',
      );
    });

    it('render config as TOML that Switchboard reads back as the same values', () => {
      const config = {
        server: { shutdown_timeout_secs: 25, body_limit_bytes: 10485760, trust_proxy: true },
        rate_limit: { limit: 600, window_secs: 1.5 },
        log: { level: 'debug', pretty: false },
        outbound: { allow_hosts: ['hooks.internal', '10.0.0.0/8'] },
        mcp_server: { allowed_hosts: ['switchboard.internal'] },
        mcp_servers: [
          { name: 'github', env: ['GITHUB_PERSONAL_ACCESS_TOKEN'], transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] } },
          { name: 'files', transport: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Tenant.Id': 'a "quoted" \\ value\nwith a newline, <tags> & ünïcode' } } },
        ],
        agents: [
          {
            name: 'support',
            skills: [{ id: 'faq', name: 'FAQ', tags: ['support'] }],
            executor: { type: 'echo', chunks: 4, delay_ms: 250 },
          },
          {
            name: 'booking',
            tools: [],
            executor: { type: 'script', steps: [{ status: 'working' }, { artifact: { text: 'Looking', name: 'progress' } }, { delay_ms: 500 }] },
          },
        ],
      };
      const rendered = renderChart('-f', valuesFile('toml', { config }));
      const toml = find(rendered, 'ConfigMap', 'switchboard').data['switchboard.toml'];
      expect(toml).toContain('body_limit_bytes = 10485760\n');
      const serviceNames = ['switchboard', 'switchboard.apps', 'switchboard.apps.svc', 'switchboard.apps.svc.cluster.local'];
      expect(parseToml(toml)).toEqual({ ...config, mcp_server: { allowed_hosts: ['switchboard.internal', ...serviceNames] } });
      expect(configSchema.safeParse(parseToml(toml)).success).toBe(true);
    });

    it("know the app's config sections and log levels (values.schema.json follows src/config/config.schema.ts)", () => {
      const chartSchema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8'));
      const appSchema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as any;
      expect(Object.keys(chartSchema.properties.config.properties).sort()).toEqual(Object.keys(appSchema.properties).sort());
      expect(chartSchema.properties.config.properties.log.properties.level.enum).toEqual(appSchema.properties.log.properties.level.enum);
    });

    it('are all documented in the chart README', () => {
      const values = parseYaml(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));
      const readme = readFileSync(join(CHART_DIR, 'README.md'), 'utf8');
      const documented = [...readme.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
      const leaves: string[] = [];
      const walk = (node: unknown, path: string) => {
        if (node && typeof node === 'object' && !Array.isArray(node) && Object.keys(node).length > 0) {
          for (const [key, child] of Object.entries(node)) walk(child, path ? `${path}.${key}` : key);
        } else leaves.push(path);
      };
      walk(values, '');
      const has = (path: string) => path.split('.').reduce<any>((node, key) => (node && typeof node === 'object' && key in node ? node[key] : undefined), values) !== undefined;
      expect(leaves.filter((leaf) => !documented.some((row) => leaf === row || leaf.startsWith(`${row}.`)))).toEqual([]);
      expect(documented.filter((row) => !has(row))).toEqual([]);
    });
  });

  describe('optional parts', () => {
    it('worker.enabled=false: no worker Deployment, HPA or PDB; the API runs the workers', () => {
      const inProcess = renderChart('--set', 'worker.enabled=false', '--set', 'worker.autoscaling.enabled=true', '--set', 'networkPolicy.enabled=true');
      expect(inProcess.filter((m) => m.metadata.name === 'switchboard-worker')).toEqual([]);
      expect(envVar(firstContainer(deployment(inProcess, 'api')), 'SWITCHBOARD_WORKER_IN_API').value).toBe('true');
      expect(envVar(firstContainer(deployment(installs.trial, 'api')), 'SWITCHBOARD_WORKER_IN_API').value).toBe('false');
    });

    it('autoscaling leaves the replica count to the HPA', () => {
      for (const component of ['api', 'worker'] as const) {
        expect(deployment(installs.production, component).spec.replicas).toBeUndefined();
        expect(find(installs.production, 'HorizontalPodAutoscaler', `switchboard-${component}`).spec.scaleTargetRef).toEqual({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: `switchboard-${component}`,
        });
      }
      expect(deployment(installs.trial, 'api').spec.replicas).toBe(1);
    });

    it('the ingress routes to the Service and sets the public URL', () => {
      const ingress = find(installs.production, 'Ingress');
      expect(ingress.spec.rules[0].http.paths[0].backend).toEqual({ service: { name: 'switchboard', port: { name: 'http' } } });
      expect(envVar(firstContainer(deployment(installs.production, 'api')), 'SWITCHBOARD_PUBLIC_URL').value).toBe('https://switchboard.example.com');
      expect(envVar(firstContainer(deployment(installs.trial, 'api')), 'SWITCHBOARD_PUBLIC_URL')).toBeUndefined();
    });

    it('network policies admit only Switchboard pods to the in-chart stores', () => {
      const withPolicies = renderChart('--set', 'networkPolicy.enabled=true');
      for (const store of ['postgresql', 'redis']) {
        const policy = find(withPolicies, 'NetworkPolicy', `switchboard-${store}`);
        expect(policy.spec.ingress[0].from[0].podSelector.matchExpressions).toEqual([{ key: 'app.kubernetes.io/component', operator: 'In', values: ['api', 'worker', 'migration'] }]);
      }
      expect(find(withPolicies, 'NetworkPolicy', 'switchboard-worker').spec.ingress).toBeUndefined();
    });

    it('the in-chart stores run the pinned official images as non-root on read-only root filesystems', () => {
      const images = installs.trial.filter((m) => m.kind === 'StatefulSet').map((m) => [m.metadata.name, firstContainer(m).image, firstContainer(m).securityContext]);
      expect(images).toEqual([
        ['switchboard-postgresql', 'postgres:15-bookworm', expect.objectContaining({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })],
        ['switchboard-redis', 'redis:7-bookworm', expect.objectContaining({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } })],
      ]);
    });
  });
});
