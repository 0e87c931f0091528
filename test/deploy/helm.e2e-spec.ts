/**
 * The Helm chart (helm/switchboard), rendered offline: `helm lint --strict`, `helm template` of a
 * trial, a production-like, a secrets-in-values and a queue-scaled (KEDA) install, every manifest
 * checked against the Kubernetes OpenAPI schemas (and the CRDs'), and what the chart promises
 * checked on the rendered objects. The rendered config and environment are loaded by Switchboard's
 * own config loader, as a pod would; the trial's generated Secret is made by running the chart's
 * secret generator against a stand-in for the Kubernetes API. No cluster runs here: scheduling,
 * image pulls and the stores' start-up are not exercised.
 */
import { BullModule } from '@nestjs/bullmq';
import type { DynamicModule } from '@nestjs/common';
import { QueueKeys } from 'bullmq';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { z } from 'zod';
import { grpcAddress } from '../../src/a2a-server/grpc/grpc-address';
import { loadConfig } from '../../src/config/config.loader';
import { configSchema } from '../../src/config/config.schema';
import { storageMode } from '../../src/config/storage-mode';
import { JobName, QUEUE_OF_JOB } from '../../src/queue/queue.constants';
import { QueueModule } from '../../src/queue/queue.module';
import { RedisService } from '../../src/redis/redis.service';
import { assertSafeToListen } from '../../src/security/listen-policy';
import { createHttpApp } from '../../src/app.factory';
import { callableRoutes, recordRoutes, samplePath } from '../security/routes';
import { writeConfigFile } from '../support/config-file';
import { testConfig } from '../support/test-app';
import { FakeKubernetesApi } from './support/fake-kubernetes-api';
import { CHART_DIR, helm, type Manifest, renderChart, REPO_ROOT } from './support/helm';
import { schemaProblems } from './support/kubernetes-models';
import type { Json } from '../support/json';

jest.setTimeout(60_000);

const PRODUCTION_VALUES = join(CHART_DIR, 'ci/production-values.yaml');

/** Recognizable secrets: each must show up in a Secret and nowhere else. */
const SECRETS = {
  apiKey: 'LEAK-API-KEY-0001-abcdef',
  adminKey: 'LEAK-ADMIN-KEY-0001-abcdef',
  openAiKey: 'LEAK-OPENAI-KEY-abcdef',
  metricsKey: 'LEAK-METRICS-KEY-abcdef',
  databasePassword: 'LEAK-DB-PASSWORD',
  redisPassword: 'LEAK-REDIS-PASSWORD',
};

/** External stores and every secret given in values: the chart creates the Secret, the migration reads a hook Secret. */
const SECRETS_IN_VALUES = {
  secrets: {
    apiKeys: `ops=${SECRETS.apiKey},ci=LEAK-API-KEY-0002-abcdef`,
    adminKeys: `root=${SECRETS.adminKey}`,
    env: { OPENAI_API_KEY: SECRETS.openAiKey },
    metricsApiKey: SECRETS.metricsKey,
  },
  postgresql: {
    deploy: false,
    externalUrl: `postgresql://switchboard:${SECRETS.databasePassword}@db.internal:5432/switchboard`,
  },
  redis: { deploy: false, externalUrl: `rediss://:${SECRETS.redisPassword}@redis.internal:6380` },
  serviceMonitor: { enabled: true },
  networkPolicy: { enabled: true },
  config: {
    agents: [
      {
        name: 'assistant',
        executor: {
          type: 'llm',
          base_url: 'https://api.openai.com/v1',
          model: 'gpt-4o-mini',
          api_key_env: 'OPENAI_API_KEY',
        },
      },
    ],
    mcp_servers: [
      {
        name: 'tools',
        transport: {
          type: 'http',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer ${OPENAI_API_KEY}' },
        },
      },
    ],
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
  'admin-keys': 'root=existing-admin-key-0123456789',
  'database-url': 'postgresql://switchboard:pw@db.internal:5432/switchboard',
  'redis-url': 'rediss://:pw@redis.internal:6380/2',
  // For KEDA (worker.keda.redis.passwordKey), which cannot read the URL.
  'redis-password': 'pw',
  'metrics-api-key': 'existing-metrics-key-0123456789',
  OPENAI_API_KEY: 'sk-existing',
};

/**
 * Production as a GitOps install would have it: the workers scaled by KEDA on the queue (Redis
 * behind existingSecret, so its address is given), the dashboard and the alert rules.
 */
const QUEUE_SCALING = {
  worker: {
    autoscaling: { enabled: false },
    keda: { enabled: true, redis: { address: 'redis.internal:6380', enableTLS: true, databaseIndex: 2 } },
  },
  grafanaDashboard: { enabled: true },
  prometheusRule: { enabled: true },
};

const NAMESPACE = 'apps';
const GENERATED_SECRET = 'switchboard-generated';

let workDir: string;
const installs: Record<'trial' | 'production' | 'secretsInValues' | 'queueScaling', Manifest[]> = {} as never;
/** The Kubernetes API the secret generator talks to, and the service account token it reads. */
const kubernetes = new FakeKubernetesApi(NAMESPACE, 'generator-token');
let kubernetesUrl: string;
let serviceAccountDir: string;

function valuesFile(name: string, values: object): string {
  const file = join(workDir, `${name}.yaml`);
  writeFileSync(file, stringifyYaml(values));
  return file;
}

function find(manifests: Manifest[], kind: string, name?: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && (name === undefined || m.metadata.name === name));
  if (!found)
    throw new Error(
      `no ${kind}${name ? ` ${name}` : ''} among ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`,
    );
  return found;
}

const deployment = (manifests: Manifest[], component: 'api' | 'worker') =>
  find(manifests, 'Deployment', `switchboard-${component}`);
const podSpec = (workload: Manifest) => workload.spec.template.spec;
const firstContainer = (workload: Manifest) => podSpec(workload).containers[0];
const annotation = (manifest: Manifest, key: string) => manifest.metadata.annotations?.[key];
const weight = (manifest: Manifest) => Number(annotation(manifest, 'helm.sh/hook-weight') ?? 0);
const envVar = (container: Json, name: string) => container.env.find((e: Json) => e.name === name);

function secretData(manifest: Manifest): Record<string, string> {
  return Object.fromEntries(
    Object.entries(manifest.data ?? {}).map(([key, value]) => [
      key,
      Buffer.from(value as string, 'base64').toString('utf8'),
    ]),
  );
}

function failedRender(...args: string[]): string {
  const result = helm('template', 'switchboard', CHART_DIR, '--namespace', NAMESPACE, ...args);
  expect(result.status).not.toBe(0);
  return result.stderr;
}

/** The Secrets the chart does not render, as the cluster would hold them: the user's, and the generated one once a generator ran. */
function unrenderedSecrets(): Record<string, Record<string, string>> {
  return {
    'switchboard-secrets': EXISTING_SECRET,
    ...(kubernetes.secrets.has(GENERATED_SECRET) && { [GENERATED_SECRET]: kubernetes.decoded(GENERATED_SECRET) }),
  };
}

/** A key of a Secret, rendered or not. */
function secretValue(manifests: Manifest[], name: string, key: string): string | undefined {
  const rendered = manifests.find((m) => m.kind === 'Secret' && m.metadata.name === name);
  return (rendered ? secretData(rendered) : unrenderedSecrets()[name])?.[key];
}

/**
 * The environment a container starts with: values as given, secretKeyRefs from the Secrets (see
 * secretValue), `$(VAR)` expanded as the kubelet does.
 */
function containerEnv(manifests: Manifest[], container: Json): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { name, value, valueFrom } of container.env) {
    if (valueFrom) {
      const { name: secret, key, optional } = valueFrom.secretKeyRef;
      const found = secretValue(manifests, secret, key);
      if (found === undefined && optional) continue;
      if (found === undefined) throw new Error(`${name}: secret ${secret} has no key ${key}`);
      env[name] = found;
    } else {
      env[name] = (value as string).replace(
        /\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g,
        (whole, ref: string) => env[ref] ?? whole,
      );
    }
  }
  return env;
}

/** The config a component's container loads: the rendered ConfigMap and environment, through Switchboard's loader. */
function loadedConfig(manifests: Manifest[], component: 'api' | 'worker') {
  const file = join(workDir, `config-${Math.random().toString(36).slice(2)}.toml`);
  writeFileSync(file, find(manifests, 'ConfigMap', 'switchboard').data['switchboard.toml']);
  return loadConfig({
    ...containerEnv(manifests, firstContainer(deployment(manifests, component))),
    SWITCHBOARD_CONFIG: file,
  }).config;
}

/**
 * The agent-turns queue as a worker of this install uses it: the Redis connection it opens and the
 * keys of the queue's BullMQ lists, built by Switchboard's own queue module (its BullMQ prefix from
 * RedisService.key) and BullMQ's own key names, from the config the worker loads.
 */
async function workerQueue(manifests: Manifest[]) {
  const config = loadedConfig(manifests, 'worker');
  const redis: RedisService = Object.assign(Object.create(RedisService.prototype), {
    prefix: config.redis.key_prefix,
    url: config.redis.url,
  });
  const queueModule = QueueModule.forRoot(storageMode(config), true, config.queue);
  const bull = queueModule.imports!.find(
    (imported) => (imported as DynamicModule).module === BullModule && (imported as DynamicModule).global,
  ) as DynamicModule;
  const sharedOptions = bull.providers!.find((provider: Json) => provider.inject?.includes(RedisService)) as Json;
  const { prefix } = await sharedOptions.useFactory(redis);
  const queue = QUEUE_OF_JOB[JobName.AgentTurn];
  return {
    config,
    connection: redis.connectionOptions(),
    listKey: (list: 'wait' | 'active') => new QueueKeys(prefix).toKey(queue, list),
  };
}

/** Runs an install's secret generator Job as its pod would (`node -e <script>` with its env), against a stand-in API. */
async function runSecretGenerator(manifests: Manifest[], api = kubernetesUrl): Promise<string> {
  const container = firstContainer(find(manifests, 'Job', 'switchboard-secret-generator'));
  const [node, flag, script] = container.command;
  expect([node, flag]).toEqual(['node', '-e']);
  const env: Record<string, string> = Object.fromEntries(container.env.map((e: Json) => [e.name, e.value]));
  // The stand-in speaks plain HTTP on this machine; the pod's CA file does not exist here.
  delete env.NODE_EXTRA_CA_CERTS;
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...env, KUBERNETES_API: api, SERVICE_ACCOUNT_DIR: serviceAccountDir },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the secret generator exited with ${code}: ${output}`);
  return output;
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'switchboard-helm-'));
  serviceAccountDir = join(workDir, 'serviceaccount');
  mkdirSync(serviceAccountDir);
  writeFileSync(join(serviceAccountDir, 'token'), `${kubernetes.token}\n`);
  kubernetesUrl = await kubernetes.start();
  installs.trial = renderChart();
  installs.production = renderChart('-f', PRODUCTION_VALUES);
  installs.secretsInValues = renderChart('-f', valuesFile('secrets-in-values', SECRETS_IN_VALUES));
  installs.queueScaling = renderChart('-f', PRODUCTION_VALUES, '-f', valuesFile('queue-scaling', QUEUE_SCALING));
  // As `helm install` would before the trial's pods start.
  await runSecretGenerator(installs.trial);
});

afterAll(async () => {
  await kubernetes.stop();
  rmSync(workDir, { recursive: true, force: true });
});

describe('the switchboard chart', () => {
  it('passes helm lint --strict with the default and the production values', () => {
    for (const args of [[], ['-f', PRODUCTION_VALUES]]) {
      const result = helm('lint', '--strict', CHART_DIR, ...args);
      expect({ args, status: result.status, output: result.stdout + result.stderr }).toMatchObject({ status: 0 });
    }
  });

  it('passes helm lint --strict with ingress, queue scaling (KEDA), existingSecret, the dashboard and the rules on', () => {
    const result = helm(
      'lint',
      '--strict',
      CHART_DIR,
      '-f',
      PRODUCTION_VALUES,
      '-f',
      valuesFile('queue-scaling-lint', QUEUE_SCALING),
    );
    expect({ status: result.status, output: result.stdout + result.stderr }).toMatchObject({ status: 0 });
  });

  it('renders only manifests valid against the Kubernetes schemas (and the prometheus-operator and KEDA CRDs)', () => {
    const all = Object.values(installs).flat();
    expect(schemaProblems(all)).toEqual([]);
    expect(new Set(all.map((m) => m.kind))).toEqual(
      new Set([
        ...[
          'ConfigMap',
          'Secret',
          'ServiceAccount',
          'Service',
          'Deployment',
          'StatefulSet',
          'Job',
          'Ingress',
          'HorizontalPodAutoscaler',
          'PodDisruptionBudget',
          'NetworkPolicy',
        ],
        ...[
          'Role',
          'RoleBinding',
          'ServiceMonitor',
          'PodMonitor',
          'PrometheusRule',
          'ScaledObject',
          'TriggerAuthentication',
        ],
      ]),
    );
  });

  it('catches a schema violation (the check is live)', () => {
    const service = structuredClone(find(installs.trial, 'Service', 'switchboard'));
    service.spec.ports[0].port = 'eighty';
    expect(schemaProblems([service])).toEqual([expect.stringContaining('Service/switchboard: /spec/ports/0/port')]);
  });

  describe.each(['trial', 'production', 'secretsInValues', 'queueScaling'] as const)('the %s install', (install) => {
    it.each(['api', 'worker'] as const)(
      'probes the %s: startup and liveness on /healthz, readiness on /readyz, on a port it listens on',
      (component) => {
        const container = firstContainer(deployment(installs[install], component));
        expect(container.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
        expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
        expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
        expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
        expect(container.startupProbe.failureThreshold * container.startupProbe.periodSeconds).toBeGreaterThanOrEqual(
          30,
        );
        // A worker serves its probes only on this port.
        if (component === 'worker')
          expect(envVar(container, 'SWITCHBOARD_WORKER_HEALTH_PORT')).toEqual({
            name: 'SWITCHBOARD_WORKER_HEALTH_PORT',
            value: '8080',
          });
        expect(envVar(container, 'HOST').value).toBe('0.0.0.0');
      },
    );

    it('runs every Switchboard container as uid 10001, read-only, without privileges, with /tmp writable', () => {
      // The secret generator (a trial's) has a test of its own: it alone needs a token, and no /tmp.
      const workloads = installs[install].filter(
        (m) => ['Deployment', 'Job'].includes(m.kind) && m.metadata.name !== 'switchboard-secret-generator',
      );
      expect(workloads.map((m) => m.metadata.name).sort()).toEqual([
        'switchboard-api',
        'switchboard-migrate',
        'switchboard-worker',
      ]);
      for (const workload of workloads) {
        const spec = podSpec(workload);
        expect(spec.securityContext).toMatchObject({
          runAsNonRoot: true,
          runAsUser: 10001,
          seccompProfile: { type: 'RuntimeDefault' },
        });
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
          const tmp = container.volumeMounts.find((mount: Json) => mount.mountPath === '/tmp');
          expect(spec.volumes.find((volume: Json) => volume.name === tmp.name)).toMatchObject({ emptyDir: {} });
          expect(container.resources.requests).toBeDefined();
        }
      }
    });

    it('gives each pod the drain time plus 5 s to stop, and the config to read', () => {
      for (const [component, grace] of [
        ['api', 35],
        ['worker', 30],
      ] as const) {
        const workload = deployment(installs[install], component);
        expect(podSpec(workload).terminationGracePeriodSeconds).toBe(grace);
        expect(envVar(firstContainer(workload), 'SWITCHBOARD_CONFIG').value).toBe('/etc/switchboard/switchboard.toml');
        expect(podSpec(workload).volumes).toContainEqual({ name: 'config', configMap: { name: 'switchboard' } });
      }
      expect(firstContainer(deployment(installs[install], 'api')).lifecycle.preStop.exec.command).toEqual([
        'sleep',
        '5',
      ]);
    });

    it("starts both commands with a config Switchboard's own loader accepts", () => {
      for (const component of ['api', 'worker'] as const) {
        expect(firstContainer(deployment(installs[install], component)).args).toEqual([
          component === 'api' ? 'serve' : 'worker',
        ]);
        const config = loadedConfig(installs[install], component);
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

    it('runs `switchboard migrate` before install and upgrade, and is replaced each time and removed once it succeeds', () => {
      const migrate = job(installs.production);
      expect(firstContainer(migrate).args).toEqual(['migrate']);
      expect(annotation(migrate, 'helm.sh/hook')).toBe('pre-install,pre-upgrade');
      expect(annotation(migrate, 'helm.sh/hook-delete-policy')).toBe('before-hook-creation,hook-succeeded');
      expect(podSpec(migrate).restartPolicy).toBe('OnFailure');
      expect(envVar(firstContainer(migrate), 'DATABASE_URL').valueFrom.secretKeyRef).toEqual({
        name: 'switchboard-secrets',
        key: 'database-url',
      });
    });

    it('comes before the Deployments: they and the objects they read are release objects, not hooks', () => {
      for (const install of Object.values(installs)) {
        const hooks = install.filter((m) => annotation(m, 'helm.sh/hook'));
        expect(hooks.map((m) => `${m.kind}/${m.metadata.name}`)).not.toContainEqual(
          expect.stringMatching(/^(Deployment|ConfigMap)\//),
        );
        // The secret generator's own account is a hook; the one the pods run as is not.
        expect(hooks.filter((m) => m.kind === 'ServiceAccount').map((m) => m.metadata.name)).not.toContain(
          podSpec(deployment(install, 'api')).serviceAccountName,
        );
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

    it('runs after the install when the chart deploys Postgres (which does not exist before it), still before upgrades; after the sync under Argo CD', () => {
      const migrate = job(installs.trial);
      expect(annotation(migrate, 'helm.sh/hook')).toBe('post-install,pre-upgrade');
      // Argo CD would run pre-upgrade as PreSync on the first sync too, before Postgres exists.
      expect(annotation(migrate, 'argocd.argoproj.io/hook')).toBe('PostSync');
      expect(annotation(job(installs.production), 'argocd.argoproj.io/hook')).toBeUndefined();
      const password = kubernetes.decoded(GENERATED_SECRET)['postgres-password'];
      expect(containerEnv(installs.trial, firstContainer(migrate)).DATABASE_URL).toBe(
        `postgresql://switchboard:${password}@switchboard-postgresql:5432/switchboard`,
      );
    });

    it('also runs in an init container of every pod when the chart deploys Postgres: the post-install Job waits for ready pods, and none is ready on an unmigrated database', () => {
      for (const name of ['switchboard-api', 'switchboard-worker']) {
        const pod = podSpec(find(installs.trial, 'Deployment', name));
        const [init, ...others] = pod.initContainers;
        expect(others).toEqual([]);
        expect(init.args).toEqual(['migrate']);
        expect(containerEnv(installs.trial, init).DATABASE_URL).toBe(
          containerEnv(installs.trial, pod.containers[0]).DATABASE_URL,
        );
        expect(init.securityContext).toEqual(pod.containers[0].securityContext);
      }
      expect(podSpec(find(installs.production, 'Deployment', 'switchboard-api')).initContainers).toBeUndefined();
    });

    it('gives up after its deadline, goes after its time to live, and keeps service mesh proxies out of its pod', () => {
      for (const name of ['switchboard-migrate', 'switchboard-secret-generator']) {
        const hook = find(installs.trial, 'Job', name);
        expect(hook.spec).toMatchObject({ activeDeadlineSeconds: 900, ttlSecondsAfterFinished: 86400 });
        expect(hook.spec.template.metadata.annotations).toEqual({
          'sidecar.istio.io/inject': 'false',
          'linkerd.io/inject': 'disabled',
        });
      }
      const tuned = renderChart(
        '--set',
        'migration.activeDeadlineSeconds=120',
        '--set',
        'migration.ttlSecondsAfterFinished=600',
        '--set',
        'migration.podAnnotations=null',
      );
      expect(job(tuned).spec).toMatchObject({ activeDeadlineSeconds: 120, ttlSecondsAfterFinished: 600 });
      expect(job(tuned).spec.template.metadata.annotations).toBeUndefined();
    });

    it('does not use the ServiceAccount the chart creates, which does not exist yet before an install', () => {
      expect(podSpec(job(installs.production)).serviceAccountName).toBeUndefined();
      const ownAccount = renderChart(
        '-f',
        PRODUCTION_VALUES,
        '--set',
        'serviceAccount.create=false',
        '--set',
        'serviceAccount.name=db-access',
      );
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
          expect({ secret, elsewhere: elsewhere.map((m) => `${m.kind}/${m.metadata.name}`) }).toEqual({
            secret,
            elsewhere: [],
          });
          if (
            install === installs.secretsInValues ||
            [SECRETS.apiKey, SECRETS.databasePassword, SECRETS.redisPassword].includes(secret)
          ) {
            expect(inSecrets).toContain(secret);
          }
        }
      }
      // The config refers to the secret by name; the value is in the environment.
      expect(find(installs.secretsInValues, 'ConfigMap', 'switchboard').data['switchboard.toml']).toContain(
        'Bearer ${OPENAI_API_KEY}',
      );
    });

    it('come from existingSecret in production, and the chart creates no Secret', () => {
      expect(installs.production.filter((m) => m.kind === 'Secret')).toEqual([]);
      const api = firstContainer(deployment(installs.production, 'api'));
      const refs = api.env
        .filter((e: Json) => e.valueFrom)
        .map((e: Json) => [e.name, e.valueFrom.secretKeyRef.name, e.valueFrom.secretKeyRef.key]);
      expect(refs).toEqual([
        ['DATABASE_URL', 'switchboard-secrets', 'database-url'],
        ['REDIS_URL', 'switchboard-secrets', 'redis-url'],
        ['SWITCHBOARD_ADMIN_KEYS', 'switchboard-secrets', 'admin-keys'],
        ['SWITCHBOARD_API_KEYS', 'switchboard-secrets', 'api-keys'],
        ['SWITCHBOARD_METRICS_API_KEY', 'switchboard-secrets', 'metrics-api-key'],
        ['OPENAI_API_KEY', 'switchboard-secrets', 'OPENAI_API_KEY'],
      ]);
    });

    it('let Prometheus scrape /metrics with a key the API and the workers accept for /metrics alone (the workers get no other)', () => {
      for (const install of [installs.production, installs.secretsInValues]) {
        const endpoint = find(install, 'ServiceMonitor').spec.endpoints[0];
        expect(endpoint).toMatchObject({ port: 'http', path: '/metrics' });
        const { name, key } = endpoint.authorization.credentials;
        const scrapeKey = { name: 'prometheus', key: secretValue(install, name, key), metrics_only: true };
        const apiKeys = loadedConfig(install, 'api').auth.api_keys;
        expect(apiKeys).toContainEqual(scrapeKey);
        // Only the scrape entry holds it: no other key of the API is Prometheus's.
        expect(apiKeys.filter((entry) => JSON.stringify(entry).includes(scrapeKey.key!))).toEqual([scrapeKey]);
        const workerEndpoint = find(install, 'PodMonitor').spec.podMetricsEndpoints[0];
        expect(workerEndpoint.authorization).toEqual(endpoint.authorization);
        expect(loadedConfig(install, 'worker').auth.api_keys).toEqual([scrapeKey]);
        const service = find(install, 'Service', 'switchboard');
        expect(service.metadata.labels).toMatchObject(find(install, 'ServiceMonitor').spec.selector.matchLabels);
      }
    });
  });

  describe('rollouts', () => {
    const checksums = (install: Manifest[]) =>
      (['api', 'worker'] as const).map((c) => [
        annotation(deployment(install, c).spec.template, 'checksum/config'),
        annotation(deployment(install, c).spec.template, 'checksum/secret'),
      ]);
    // Pod templates keep their annotations under spec.template.metadata.
    const podAnnotation = (install: Manifest[], component: 'api' | 'worker', key: string) =>
      deployment(install, component).spec.template.metadata.annotations[key];

    it('roll the pods when the config changes, and only then', () => {
      const base = renderChart('--set', 'secrets.apiKeys=ops=fixed-key-0123456789');
      const same = renderChart('--set', 'secrets.apiKeys=ops=fixed-key-0123456789');
      const debug = renderChart('--set', 'secrets.apiKeys=ops=fixed-key-0123456789', '--set', 'config.log.level=debug');
      for (const component of ['api', 'worker'] as const) {
        expect(podAnnotation(same, component, 'checksum/config')).toBe(
          podAnnotation(base, component, 'checksum/config'),
        );
        expect(podAnnotation(debug, component, 'checksum/config')).not.toBe(
          podAnnotation(base, component, 'checksum/config'),
        );
        expect(podAnnotation(debug, component, 'checksum/secret')).toBe(
          podAnnotation(base, component, 'checksum/secret'),
        );
      }
      expect(checksums(base)).toEqual(checksums(same));
    });

    it('roll the pods when a secret in values changes', () => {
      const before = renderChart('--set', 'secrets.apiKeys=ops=fixed-key-0123456789');
      const after = renderChart('--set', 'secrets.apiKeys=ops=other-key-0123456789');
      for (const component of ['api', 'worker'] as const) {
        expect(podAnnotation(after, component, 'checksum/secret')).not.toBe(
          podAnnotation(before, component, 'checksum/secret'),
        );
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
      [['--set', 'commonLabels.app\\.kubernetes\\.io/name=other'], "invalid propertyName 'app.kubernetes.io/name'"],
      [['--set', 'commonLabels.team=a team'], "at '/commonLabels/team'"],
      [['--set', 'revisionHistoryLimit=-1'], "at '/revisionHistoryLimit'"],
      [['--set', 'api.priorityClassName=1'], "at '/api/priorityClassName'"],
      [['--set', 'worker.priorityClassName=true'], "at '/worker/priorityClassName'"],
      [
        ['--set', 'api.extraInitContainers[0].image=busybox'],
        "at '/api/extraInitContainers/0': missing property 'name'",
      ],
      [['--set', 'api.extraContainers[0].image=busybox'], "at '/api/extraContainers/0': missing property 'name'"],
      [
        ['--set', 'worker.extraInitContainers[0].image=busybox'],
        "at '/worker/extraInitContainers/0': missing property 'name'",
      ],
      [['--set', 'worker.extraContainers=sidecar'], "at '/worker/extraContainers'"],
      [['--set', 'worker.keda.enabled=notabool'], "at '/worker/keda/enabled'"],
      [['--set', 'worker.keda.minReplicas=0'], "at '/worker/keda/minReplicas'"],
      [['--set', 'worker.keda.maxReplicas=0'], "at '/worker/keda/maxReplicas'"],
      [['--set', 'worker.keda.targetConcurrencyPercentage=150'], "at '/worker/keda/targetConcurrencyPercentage'"],
      [['--set', 'worker.keda.waitingTurnsPerReplica=0'], "at '/worker/keda/waitingTurnsPerReplica'"],
      [['--set', 'worker.keda.pollingInterval=0'], "at '/worker/keda/pollingInterval'"],
      [['--set', 'worker.keda.redis.address=redis.internal'], "at '/worker/keda/redis/address'"],
      [['--set', 'worker.keda.redis.enableTLS=yes'], "at '/worker/keda/redis/enableTLS'"],
      [['--set', 'worker.keda.redis.databaseIndex=-1'], "at '/worker/keda/redis/databaseIndex'"],
      [['--set', 'worker.keda.redis.passwordKey=redis password'], "at '/worker/keda/redis/passwordKey'"],
      [['--set', 'worker.keda.redis.usernameKey=redis/user'], "at '/worker/keda/redis/usernameKey'"],
      [['--set', 'worker.keda.replicas=2'], "additional properties 'replicas' not allowed"],
      [['--set', 'migration.activeDeadlineSeconds=0'], "at '/migration/activeDeadlineSeconds'"],
      [['--set', 'migration.ttlSecondsAfterFinished=5'], "at '/migration/ttlSecondsAfterFinished'"],
      [
        ['--set', 'migration.podAnnotations.sidecar\\.istio\\.io/inject=false'],
        "at '/migration/podAnnotations/sidecar.istio.io~1inject'",
      ],
      [['--set', 'ingress.streamingAnnotations=sometimes'], "at '/ingress/streamingAnnotations'"],
      [['--set', 'networkPolicy.metricsFrom=monitoring'], "at '/networkPolicy/metricsFrom'"],
      [['--set', 'networkPolicy.redisFrom=keda'], "at '/networkPolicy/redisFrom'"],
      [['--set', 'secrets.adminKeys=root=too-short'], "at '/secrets/adminKeys'"],
      [['--set', 'adminIngress.enabled=yes'], "at '/adminIngress/enabled'"],
      [['--set', 'adminIngress.host=not a host'], "at '/adminIngress/host'"],
      [['--set', 'adminIngress.paths[0]=/console'], "additional properties 'paths' not allowed"],
      [['--set', 'networkPolicy.egress.enabled=yes'], "at '/networkPolicy/egress/enabled'"],
      [['--set', 'networkPolicy.egress.dns=kube-dns'], "at '/networkPolicy/egress/dns'"],
      [['--set', 'networkPolicy.egress.postgresql.port=0'], "at '/networkPolicy/egress/postgresql/port'"],
      [['--set', 'networkPolicy.egress.redis.to=redis.internal'], "at '/networkPolicy/egress/redis/to'"],
      [['--set', 'networkPolicy.egress.otlp.port=70000'], "at '/networkPolicy/egress/otlp/port'"],
      [['--set', 'networkPolicy.egress.rules=anywhere'], "at '/networkPolicy/egress/rules'"],
      [['--set', 'networkPolicy.egress.rules[0].ports[0].port=0'], "at '/networkPolicy/egress/rules/0/ports/0/port'"],
      [['--set', 'grafanaDashboard.enabled=yes'], "at '/grafanaDashboard/enabled'"],
      [['--set', 'grafanaDashboard.labels.grafana_dashboard=1'], "at '/grafanaDashboard/labels/grafana_dashboard'"],
      [['--set', 'grafanaDashboard.namespace=Monitoring_NS'], "at '/grafanaDashboard/namespace'"],
      [['--set', 'prometheusRule.enabled=on'], "at '/prometheusRule/enabled'"],
      [['--set', 'prometheusRule.labels.release=a b'], "at '/prometheusRule/labels/release'"],
      [['--set', 'grpc.enabled=yes'], "at '/grpc/enabled'"],
      [['--set', 'grpc.port=0'], "at '/grpc/port'"],
      [['--set', 'grpc.port=70000'], "at '/grpc/port'"],
      [['--set', 'grpc.publicAddress=grpc.example.com'], "at '/grpc/publicAddress'"],
      [['--set', 'grpc.appProtocol=h2 c'], "at '/grpc/appProtocol'"],
      [['--set', 'grpc.tls=true'], "additional properties 'tls' not allowed"],
      [
        ['--set-json', 'config.auth.oauth={"resource":"https://s.example.com/mcp","issuers":[]}'],
        "at '/config/auth/oauth/issuers': minItems",
      ],
      [
        ['--set-json', 'config.auth.oauth={"issuers":[{"issuer":"login.example.com"}]}'],
        "at '/config/auth/oauth/issuers/0/issuer'",
      ],
      [
        ['--set-json', 'config.auth.oauth={"issuers":[{"issuer":"https://login.example.com","scope":"a2a"}]}'],
        "additional properties 'scope' not allowed",
      ],
      [
        ['--set-json', 'config.auth.oauth={"issuers":[{"issuer":"https://login.example.com"}],"algorithms":["HS256"]}'],
        "at '/config/auth/oauth/algorithms/0'",
      ],
      [
        ['--set-json', 'config.auth.oauth={"issuers":[{"issuer":"https://login.example.com"}],"clock_skew_secs":900}'],
        "at '/config/auth/oauth/clock_skew_secs'",
      ],
      [
        [
          '--set-json',
          'config.auth.oauth={"issuers":[{"issuer":"https://login.example.com","introspection":{"client_id":"switchboard","client_secret":"s3cret"}}]}',
        ],
        "at '/config/auth/oauth/issuers/0/introspection/client_secret'",
      ],
      [['--set', 'trustedCa.secret=Corporate CA'], "at '/trustedCa/secret'"],
      [['--set', 'trustedCa.path=/etc/ca.pem'], "additional properties 'path' not allowed"],
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
      expect(failedRender('--set', 'redis.deploy=false')).toContain(
        'redis: Switchboard needs Redis: set redis.externalUrl',
      );
      const both = failedRender('--set', 'postgresql.deploy=false', '--set', 'redis.deploy=false');
      expect(both).toContain('Switchboard needs Postgres');
      expect(both).toContain('Switchboard needs Redis');
    });

    it('fail on combinations that cannot both hold', () => {
      expect(failedRender('--set', 'postgresql.externalUrl=postgresql://db/x')).toContain(
        'postgresql: set either postgresql.deploy or postgresql.externalUrl, not both',
      );
      expect(
        failedRender('--set', 'secrets.existingSecret=mine', '--set', 'secrets.apiKeys=ops=k-0123456789abcdef'),
      ).toContain('secrets.apiKeys: with secrets.existingSecret');
      expect(failedRender('--set', 'config.server.host=127.0.0.1')).toContain('config.server.host: set by the chart');
      expect(failedRender('--set', 'config.database.url=postgresql://db/x')).toContain(
        'config.database.url: set by the chart; use postgresql.externalUrl',
      );
      expect(failedRender('--set', 'secrets.env.DATABASE_URL=x')).toContain(
        'DATABASE_URL: the chart sets this environment variable itself',
      );
      expect(
        failedRender(
          '--set',
          'api.autoscaling.enabled=true',
          '--set',
          'api.autoscaling.minReplicas=5',
          '--set',
          'api.autoscaling.maxReplicas=2',
        ),
      ).toContain('api.autoscaling: minReplicas (5) is above maxReplicas (2)');
      expect(
        failedRender('--set', 'trustedCa.configMap=corporate-ca', '--set', 'trustedCa.secret=corporate-ca'),
      ).toContain('trustedCa: set either trustedCa.configMap or trustedCa.secret, not both');
      expect(
        failedRender(
          '--set',
          'trustedCa.configMap=corporate-ca',
          '--set',
          'extraEnv[0].name=NODE_EXTRA_CA_CERTS',
          '--set',
          'extraEnv[0].value=/ca.pem',
        ),
      ).toContain('NODE_EXTRA_CA_CERTS: the chart sets this environment variable itself');
      expect(
        failedRender('--set-json', 'config.auth.oauth={"issuers":[{"issuer":"https://login.example.com"}]}'),
      ).toContain('config.auth.oauth.resource: set it to the URL clients reach /mcp at, or set publicUrl');
    });

    it('render config as TOML that Switchboard reads back as the same values', () => {
      const config = {
        server: { shutdown_timeout_secs: 25, body_limit_bytes: 10485760, trust_proxy: true },
        rate_limit: { limit: 600, window_secs: 1.5 },
        log: { level: 'debug', pretty: false },
        outbound: { allow_hosts: ['hooks.internal', '10.0.0.0/8'] },
        mcp_server: { allowed_hosts: ['switchboard.internal'] },
        mcp_servers: [
          {
            name: 'github',
            env: ['GITHUB_PERSONAL_ACCESS_TOKEN'],
            transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] },
          },
          {
            name: 'files',
            transport: {
              type: 'http',
              url: 'https://mcp.example.com/mcp',
              headers: { 'X-Tenant.Id': 'a "quoted" \\ value\nwith a newline, <tags> & ünïcode' },
            },
          },
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
            executor: {
              type: 'script',
              steps: [{ status: 'working' }, { artifact: { text: 'Looking', name: 'progress' } }, { delay_ms: 500 }],
            },
          },
        ],
      };
      const rendered = renderChart('-f', valuesFile('toml', { config }));
      const toml = find(rendered, 'ConfigMap', 'switchboard').data['switchboard.toml'];
      expect(toml).toContain('body_limit_bytes = 10485760\n');
      const serviceNames = [
        'switchboard',
        'switchboard.apps',
        'switchboard.apps.svc',
        'switchboard.apps.svc.cluster.local',
      ];
      expect(parseToml(toml)).toEqual({
        ...config,
        mcp_server: { allowed_hosts: ['switchboard.internal', ...serviceNames] },
      });
      expect(configSchema.safeParse(parseToml(toml)).success).toBe(true);
    });

    it("know the app's config sections and log levels (values.schema.json follows src/config/config.schema.ts)", () => {
      const chartSchema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8'));
      const appSchema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as Json;
      expect(Object.keys(chartSchema.properties.config.properties).sort()).toEqual(
        Object.keys(appSchema.properties).sort(),
      );
      expect(chartSchema.properties.config.properties.log.properties.level.enum).toEqual(
        appSchema.properties.log.properties.level.enum,
      );
      const [chartOAuth, appOAuth] = [
        chartSchema.properties.config.properties.auth.properties.oauth,
        appSchema.properties.auth.properties.oauth,
      ];
      expect(Object.keys(chartOAuth.properties).sort()).toEqual(Object.keys(appOAuth.properties).sort());
      expect(Object.keys(chartOAuth.properties.issuers.items.properties).sort()).toEqual(
        Object.keys(appOAuth.properties.issuers.items.properties).sort(),
      );
      expect(chartOAuth.properties.algorithms.items.enum).toEqual(appOAuth.properties.algorithms.items.enum);
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
      const has = (path: string) =>
        path
          .split('.')
          .reduce<Json | undefined>(
            (node, key) => (node && typeof node === 'object' && key in node ? node[key] : undefined),
            values,
          ) !== undefined;
      expect(leaves.filter((leaf) => !documented.some((row) => leaf === row || leaf.startsWith(`${row}.`)))).toEqual(
        [],
      );
      expect(documented.filter((row) => !has(row))).toEqual([]);
    });
  });

  describe('optional parts', () => {
    it('worker.enabled=false: no worker Deployment, HPA or PDB; the API runs the workers', () => {
      const inProcess = renderChart(
        '--set',
        'worker.enabled=false',
        '--set',
        'worker.autoscaling.enabled=true',
        '--set',
        'networkPolicy.enabled=true',
      );
      expect(inProcess.filter((m) => m.metadata.name === 'switchboard-worker')).toEqual([]);
      expect(envVar(firstContainer(deployment(inProcess, 'api')), 'SWITCHBOARD_WORKER_IN_API').value).toBe('true');
      expect(envVar(firstContainer(deployment(installs.trial, 'api')), 'SWITCHBOARD_WORKER_IN_API').value).toBe(
        'false',
      );
    });

    it('autoscaling leaves the replica count to the HPA', () => {
      for (const component of ['api', 'worker'] as const) {
        expect(deployment(installs.production, component).spec.replicas).toBeUndefined();
        expect(
          find(installs.production, 'HorizontalPodAutoscaler', `switchboard-${component}`).spec.scaleTargetRef,
        ).toEqual({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: `switchboard-${component}`,
        });
      }
      expect(deployment(installs.trial, 'api').spec.replicas).toBe(1);
    });

    it('the ingress keeps SSE streams unbuffered and open for the common controllers; annotations in values win; streamingAnnotations=false leaves them out', () => {
      const streaming = {
        'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
        'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
        'nginx.ingress.kubernetes.io/proxy-send-timeout': '3600',
        'nginx.org/proxy-buffering': 'false',
        'nginx.org/proxy-read-timeout': '3600s',
        'nginx.org/proxy-send-timeout': '3600s',
        'haproxy.org/timeout-server': '3600s',
      };
      expect(find(installs.production, 'Ingress', 'switchboard').metadata.annotations).toEqual(streaming);
      const mine = {
        'nginx.ingress.kubernetes.io/proxy-read-timeout': '86400',
        'cert-manager.io/cluster-issuer': 'letsencrypt',
      };
      const overridden = renderChart(
        '--set',
        'ingress.enabled=true',
        '--set-json',
        `ingress.annotations=${JSON.stringify(mine)}`,
      );
      expect(find(overridden, 'Ingress').metadata.annotations).toEqual({ ...streaming, ...mine });
      const off = renderChart(
        '--set',
        'ingress.enabled=true',
        '--set',
        'ingress.streamingAnnotations=false',
        '--set-json',
        `ingress.annotations=${JSON.stringify(mine)}`,
      );
      expect(find(off, 'Ingress').metadata.annotations).toEqual(mine);
    });

    it('serviceMonitor also scrapes every worker on its health port, where it serves /metrics, through network policies', () => {
      for (const install of [installs.production, installs.secretsInValues]) {
        const monitor = find(install, 'PodMonitor', 'switchboard-worker');
        const worker = deployment(install, 'worker');
        expect(monitor.spec.selector.matchLabels).toMatchObject({ 'app.kubernetes.io/component': 'worker' });
        expect(worker.spec.template.metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
        expect(deployment(install, 'api').spec.template.metadata.labels).not.toMatchObject(
          monitor.spec.selector.matchLabels,
        );
        const [endpoint, ...others] = monitor.spec.podMetricsEndpoints;
        expect(others).toEqual([]);
        expect(endpoint).toMatchObject({ port: 'http', path: '/metrics', interval: '30s' });
        const port = firstContainer(worker).ports.find((p: Json) => p.name === endpoint.port);
        expect(String(port.containerPort)).toBe(envVar(firstContainer(worker), 'SWITCHBOARD_WORKER_HEALTH_PORT').value);
        expect(monitor.metadata.labels).toMatchObject(install === installs.production ? { release: 'prometheus' } : {});
      }
      expect(find(installs.production, 'NetworkPolicy', 'switchboard-worker').spec.ingress).toEqual([
        {
          ports: [{ port: 'http', protocol: 'TCP' }],
          from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        },
      ]);
      expect(installs.trial.filter((m) => m.kind === 'PodMonitor')).toEqual([]);
    });

    it('the Grafana dashboard and the alert rules render only when enabled, carrying the files as they are', () => {
      const dashboardFile = readFileSync(join(CHART_DIR, 'files/grafana-dashboard.json'), 'utf8');
      const rulesFile = parseYaml(readFileSync(join(CHART_DIR, 'files/prometheus-rules.yaml'), 'utf8'));
      const dashboard = find(installs.queueScaling, 'ConfigMap', 'switchboard-dashboard');
      expect(dashboard.metadata).toMatchObject({ namespace: NAMESPACE, labels: { grafana_dashboard: '1' } });
      expect(dashboard.data['switchboard.json'].trimEnd()).toBe(dashboardFile.trimEnd());
      expect(JSON.parse(dashboard.data['switchboard.json'])).toEqual(JSON.parse(dashboardFile));
      expect(find(installs.queueScaling, 'PrometheusRule', 'switchboard').spec).toEqual(rulesFile);
      expect(rulesFile.groups.length).toBeGreaterThan(0);
      for (const install of [installs.trial, installs.production]) {
        expect(
          install.filter((m) => m.kind === 'PrometheusRule' || m.metadata.name === 'switchboard-dashboard'),
        ).toEqual([]);
      }
      const elsewhere = renderChart(
        ...[
          '--set',
          'grafanaDashboard.enabled=true',
          '--set',
          'grafanaDashboard.namespace=monitoring',
          '--set',
          'grafanaDashboard.labels.grafana_dashboard=null',
        ],
        ...[
          '--set',
          'grafanaDashboard.labels.dashboards=switchboard',
          '--set',
          'prometheusRule.enabled=true',
          '--set',
          'prometheusRule.labels.release=prometheus',
        ],
      );
      const moved = find(elsewhere, 'ConfigMap', 'switchboard-dashboard');
      expect(moved.metadata.namespace).toBe('monitoring');
      expect(moved.metadata.labels).toMatchObject({ dashboards: 'switchboard' });
      expect(moved.metadata.labels?.grafana_dashboard).toBeUndefined();
      expect(find(elsewhere, 'PrometheusRule', 'switchboard').metadata.labels).toMatchObject({ release: 'prometheus' });
    });

    it('the ingress routes to the Service and sets the public URL', () => {
      const ingress = find(installs.production, 'Ingress', 'switchboard');
      expect(ingress.spec.rules[0].http.paths[0].backend).toEqual({
        service: { name: 'switchboard', port: { name: 'http' } },
      });
      expect(envVar(firstContainer(deployment(installs.production, 'api')), 'SWITCHBOARD_PUBLIC_URL').value).toBe(
        'https://switchboard.example.com',
      );
      expect(envVar(firstContainer(deployment(installs.trial, 'api')), 'SWITCHBOARD_PUBLIC_URL')).toBeUndefined();
    });

    it('network policies admit only Switchboard pods to the in-chart stores', () => {
      const withPolicies = renderChart('--set', 'networkPolicy.enabled=true');
      for (const store of ['postgresql', 'redis']) {
        const policy = find(withPolicies, 'NetworkPolicy', `switchboard-${store}`);
        expect(policy.spec.ingress[0].from[0].podSelector.matchExpressions).toEqual([
          { key: 'app.kubernetes.io/component', operator: 'In', values: ['api', 'worker', 'migration'] },
        ]);
      }
      expect(find(withPolicies, 'NetworkPolicy', 'switchboard-worker').spec.ingress).toBeUndefined();
    });

    it('the in-chart stores run the pinned official images as non-root on read-only root filesystems', () => {
      const images = installs.trial
        .filter((m) => m.kind === 'StatefulSet')
        .map((m) => [m.metadata.name, firstContainer(m).image, firstContainer(m).securityContext]);
      expect(images).toEqual([
        [
          'switchboard-postgresql',
          'postgres:15-bookworm',
          expect.objectContaining({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          }),
        ],
        [
          'switchboard-redis',
          'redis:7-bookworm',
          expect.objectContaining({
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          }),
        ],
      ]);
    });
  });

  describe('secrets without lookup', () => {
    it('no template calls lookup, and two renders give the same bytes: nothing random for Argo CD to see drift in', () => {
      const templates = join(CHART_DIR, 'templates');
      for (const file of readdirSync(templates)) {
        const code = readFileSync(join(templates, file), 'utf8').replace(/\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g, '');
        expect({ file, lookups: code.match(/\blookup\b/g) ?? [] }).toEqual({ file, lookups: [] });
      }
      const render = () =>
        helm('template', 'switchboard', CHART_DIR, '--namespace', NAMESPACE, '--set', 'serviceMonitor.enabled=true')
          .stdout;
      expect(render()).toBe(render());
    });

    it('with existingSecret, no rendered Secret holds API keys and none is generated', () => {
      const withTrialStores = renderChart('--set', 'secrets.existingSecret=switchboard-secrets');
      for (const install of [installs.production, installs.queueScaling, withTrialStores]) {
        expect(
          install.filter(
            (m) => m.kind === 'Secret' && ('api-keys' in (m.data ?? {}) || 'admin-keys' in (m.data ?? {})),
          ),
        ).toEqual([]);
        const apiKeys = firstContainer(deployment(install, 'api')).env.filter((e: Json) =>
          ['api-keys', 'admin-keys'].includes(e.valueFrom?.secretKeyRef.key),
        );
        expect(apiKeys.map((e: Json) => e.valueFrom.secretKeyRef.name)).toEqual([
          'switchboard-secrets',
          'switchboard-secrets',
        ]);
      }
      // External stores too: nothing to generate, no Secret at all.
      for (const install of [installs.production, installs.queueScaling]) {
        expect(
          install.filter((m) => m.kind === 'Secret' || m.metadata.name === 'switchboard-secret-generator'),
        ).toEqual([]);
      }
      // The trial's stores still get their passwords generated.
      const generator = find(withTrialStores, 'Job', 'switchboard-secret-generator');
      expect(JSON.parse(envVar(firstContainer(generator), 'GENERATE').value)).toEqual({
        'postgres-password': '',
        'redis-password': '',
      });
    });

    it('are generated by a hook before the migration and the pods, whose Role may read and change no Secret but its own', () => {
      const [account, role, binding, generator] = ['ServiceAccount', 'Role', 'RoleBinding', 'Job'].map((kind) =>
        find(installs.trial, kind, 'switchboard-secret-generator'),
      );
      for (const hook of [account, role, binding, generator]) {
        expect(annotation(hook, 'helm.sh/hook')).toBe('pre-install,pre-upgrade');
        expect(annotation(hook, 'helm.sh/hook-delete-policy')).toBe('before-hook-creation,hook-succeeded');
      }
      expect(Math.max(weight(account), weight(role), weight(binding))).toBeLessThan(weight(generator));
      expect(weight(generator)).toBeLessThan(weight(find(installs.trial, 'Job', 'switchboard-migrate')));
      expect(role.rules).toEqual([
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
        { apiGroups: [''], resources: ['secrets'], resourceNames: [GENERATED_SECRET], verbs: ['get', 'patch'] },
      ]);
      expect(binding.roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: role.metadata.name,
      });
      expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: account.metadata.name, namespace: NAMESPACE }]);
      const pod = podSpec(generator);
      expect(pod).toMatchObject({
        serviceAccountName: account.metadata.name,
        automountServiceAccountToken: true,
        securityContext: podSpec(deployment(installs.trial, 'api')).securityContext,
      });
      const api = firstContainer(deployment(installs.trial, 'api'));
      expect(firstContainer(generator)).toMatchObject({ image: api.image, securityContext: api.securityContext });
      // What the trial's pods read from the generated Secret is what the generator makes.
      const read = installs.trial
        .filter((m) => m.kind === 'Deployment' || m.kind === 'StatefulSet' || m.kind === 'Job')
        .flatMap((m) => [...(podSpec(m).initContainers ?? []), ...podSpec(m).containers])
        .flatMap((c: Json) => c.env ?? [])
        .filter((e: Json) => e.valueFrom?.secretKeyRef.name === GENERATED_SECRET)
        .map((e: Json) => e.valueFrom.secretKeyRef.key);
      expect([...new Set(read)].sort()).toEqual(
        Object.keys(JSON.parse(envVar(firstContainer(generator), 'GENERATE').value)).sort(),
      );
    });

    it('the generator makes each missing value once, later adds only the keys it lacks, and never changes one', async () => {
      // Made in beforeAll by the trial's generator, as `helm install` would.
      const first = kubernetes.decoded(GENERATED_SECRET);
      expect(Object.keys(first).sort()).toEqual(['admin-keys', 'postgres-password', 'redis-password']);
      expect(first['admin-keys']).toMatch(/^admin=[0-9a-f]{64}$/);
      expect(first['postgres-password']).toMatch(/^[0-9a-f]{64}$/);
      expect(first['redis-password']).not.toBe(first['postgres-password']);
      // No app.kubernetes.io/instance: Argo CD, tracking by that label, would prune it as its own.
      expect(kubernetes.secrets.get(GENERATED_SECRET)!.metadata.labels).toEqual({
        'app.kubernetes.io/name': 'switchboard',
        'app.kubernetes.io/component': 'generated-secrets',
      });
      // An upgrade, or an Argo CD sync, runs it again: nothing changes.
      expect(await runSecretGenerator(installs.trial)).toContain('holds every key already');
      expect(kubernetes.decoded(GENERATED_SECRET)).toEqual(first);
      // A value wanted later (Prometheus's key) is added alone, and the API takes it.
      const withMonitor = renderChart('--set', 'serviceMonitor.enabled=true');
      expect(await runSecretGenerator(withMonitor)).toContain('generated metrics-api-key');
      const after = kubernetes.decoded(GENERATED_SECRET);
      expect(after).toEqual({ ...first, 'metrics-api-key': expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(containerEnv(withMonitor, firstContainer(deployment(withMonitor, 'api')))).toMatchObject({
        SWITCHBOARD_ADMIN_KEYS: after['admin-keys'],
        SWITCHBOARD_METRICS_KEYS: `prometheus=${after['metrics-api-key']}`,
      });
      expect(kubernetes.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    });

    it('the generator fails, saying why, when the API refuses it', async () => {
      const refused = new FakeKubernetesApi(NAMESPACE, 'another-token');
      const url = await refused.start();
      try {
        await expect(runSecretGenerator(installs.trial, url)).rejects.toThrow(
          /switchboard-generated: GET .* HTTP 401 Unauthorized/,
        );
      } finally {
        await refused.stop();
      }
    });
  });

  describe('queue-depth scaling (worker.keda)', () => {
    it('scales the worker Deployment on the BullMQ lists of the agent-turns queue the workers use, in the Redis they use', async () => {
      const inChartRedis = renderChart(
        '--set',
        'worker.keda.enabled=true',
        '--set',
        'config.redis.key_prefix=team-a:',
        '--set',
        'config.queue.concurrency=20',
      );
      const externalRedis = renderChart(
        ...[
          '--set',
          'worker.keda.enabled=true',
          '--set',
          'postgresql.deploy=false',
          '--set',
          'postgresql.externalUrl=postgresql://u:p@db.internal:5432/x',
        ],
        ...['--set', 'redis.deploy=false', '--set', 'redis.externalUrl=rediss://queue:s3cret@redis.internal:6390/3'],
      );
      for (const install of [installs.queueScaling, inChartRedis, externalRedis]) {
        const worker = deployment(install, 'worker');
        const scaled = find(install, 'ScaledObject', worker.metadata.name);
        expect(scaled.apiVersion).toBe('keda.sh/v1alpha1');
        expect(scaled.spec.scaleTargetRef).toEqual({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: worker.metadata.name,
        });
        expect(scaled.spec).toMatchObject({ minReplicaCount: 1, maxReplicaCount: 10 });
        // KEDA's HPA sets the count; no other HPA competes.
        expect(worker.spec.replicas).toBeUndefined();
        expect(
          install.filter(
            (m) => m.kind === 'HorizontalPodAutoscaler' && m.spec.scaleTargetRef.name === worker.metadata.name,
          ),
        ).toEqual([]);

        const { config, connection, listKey } = await workerQueue(install);
        const triggers = scaled.spec.triggers;
        expect(triggers.map((t: Json) => [t.type, t.metadata.listName, t.metadata.listLength])).toEqual([
          ['redis', listKey('active'), String(Math.max(1, Math.floor((config.queue.concurrency * 75) / 100)))],
          ['redis', listKey('wait'), '10'],
        ]);
        // KEDA's operator runs in another namespace: a Service's name alone would not resolve there.
        const host = connection.host!.includes('.') ? connection.host : `${connection.host}.${NAMESPACE}.svc`;
        const auth = find(install, 'TriggerAuthentication', triggers[0].authenticationRef.name);
        const credential = (parameter: string) => {
          const ref = auth.spec.secretTargetRef.find((r: Json) => r.parameter === parameter);
          return ref && secretValue(install, ref.name, ref.key);
        };
        for (const trigger of triggers) {
          expect(trigger.metadata).toMatchObject({
            address: `${host}:${connection.port}`,
            enableTLS: String(connection.tls !== undefined),
            databaseIndex: String(connection.db ?? 0),
          });
          expect(trigger.authenticationRef).toEqual({ name: auth.metadata.name });
        }
        expect(credential('password')).toBe(connection.password);
        expect(credential('username')).toBe(connection.username);
      }
      expect((await workerQueue(inChartRedis)).listKey('wait')).toMatch(/^team-a:/);
    });

    it('refuses what it cannot do, saying what to set', () => {
      const keda = ['--set', 'worker.keda.enabled=true'];
      expect(failedRender(...keda, '--set', 'worker.autoscaling.enabled=true')).toContain(
        'worker.keda.enabled and worker.autoscaling.enabled: both would scale the workers',
      );
      expect(failedRender(...keda, '--set', 'worker.enabled=false')).toContain(
        'worker.keda.enabled: needs worker.enabled',
      );
      expect(
        failedRender(...keda, '--set', 'worker.keda.minReplicas=5', '--set', 'worker.keda.maxReplicas=2'),
      ).toContain('worker.keda: minReplicas (5) is above maxReplicas (2)');
      expect(failedRender('-f', PRODUCTION_VALUES, '--set', 'worker.autoscaling.enabled=false', ...keda)).toContain(
        'worker.keda.redis.address: KEDA reads the queue from Redis, whose URL is in switchboard-secrets',
      );
      expect(failedRender(...keda, '--set', 'worker.keda.redis.address=redis.internal:6379')).toContain(
        'worker.keda.redis.address: only with secrets.existingSecret and redis.deploy=false',
      );
      expect(
        failedRender(
          ...keda,
          '--set',
          'redis.deploy=false',
          '--set',
          'redis.externalUrl=redis://:p%40ss@redis.internal:6379',
        ),
      ).toContain('cannot decode the %-escapes');
      expect(failedRender(...keda, '--set', 'networkPolicy.enabled=true')).toContain(
        "networkPolicy.redisFrom: KEDA's operator reads the queue from the in-chart Redis",
      );
      expect(
        failedRender(...keda, '--set', 'extraEnv[0].name=SWITCHBOARD_REDIS_PREFIX', '--set', 'extraEnv[0].value=x:'),
      ).toContain('SWITCHBOARD_REDIS_PREFIX: with worker.keda.enabled set config.redis.key_prefix instead');
    });

    it("admits KEDA's operator to the in-chart Redis behind network policies", () => {
      const keda = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'keda' } } };
      const withPolicies = renderChart(
        '--set',
        'worker.keda.enabled=true',
        '--set',
        'networkPolicy.enabled=true',
        '--set-json',
        `networkPolicy.redisFrom=${JSON.stringify([keda])}`,
      );
      expect(find(withPolicies, 'NetworkPolicy', 'switchboard-redis').spec.ingress[0].from).toEqual([
        expect.objectContaining({ podSelector: expect.anything() }),
        keda,
      ]);
      expect(find(withPolicies, 'NetworkPolicy', 'switchboard-postgresql').spec.ingress[0].from).toHaveLength(1);
    });
  });

  describe('A2A over gRPC (grpc.*)', () => {
    const GRPC = {
      grpc: { enabled: true },
      networkPolicy: {
        enabled: true,
        apiFrom: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'clients' } } }],
      },
    };
    const grpcPort = (workload: Manifest) =>
      (firstContainer(workload).ports as Json[]).find((port) => port.name === 'grpc');
    const servicePort = (install: Manifest[], name: string) =>
      find(install, 'Service', 'switchboard').spec.ports.find((port: Json) => port.name === name);
    // The address an agent card lists, as the API builds it, for a card fetched through the Service.
    const cardAddress = (install: Manifest[]) =>
      grpcAddress(
        loadedConfig(install, 'api').a2a.grpc,
        `http://switchboard.${NAMESPACE}.svc:${servicePort(install, 'http').port}/`,
      );

    it('is off by default: no grpc port, variable or config anywhere in any install', () => {
      for (const [name, install] of Object.entries(installs)) {
        expect({ name, grpc: JSON.stringify(install).match(/grpc/gi) ?? [] }).toEqual({ name, grpc: [] });
        expect(loadedConfig(install, 'api').a2a.grpc.port).toBeUndefined();
        expect(cardAddress(install)).toBeUndefined();
      }
    });

    it('opens grpc.port on the API pods, the Service and the API network policy, never on the workers; probes stay on HTTP', () => {
      for (const values of [GRPC, { ...GRPC, ...SECRETS_IN_VALUES, networkPolicy: GRPC.networkPolicy }]) {
        const install = renderChart('-f', valuesFile('grpc', values));
        expect(schemaProblems(install)).toEqual([]);
        const [api, worker] = [deployment(install, 'api'), deployment(install, 'worker')];
        expect(firstContainer(api).ports).toEqual([
          { name: 'http', containerPort: 8080, protocol: 'TCP' },
          { name: 'grpc', containerPort: 50051, protocol: 'TCP' },
        ]);
        expect(envVar(firstContainer(api), 'SWITCHBOARD_GRPC_PORT')).toEqual({
          name: 'SWITCHBOARD_GRPC_PORT',
          value: '50051',
        });
        for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe'])
          expect(firstContainer(api)[probe].httpGet.port).toBe('http');
        expect(firstContainer(worker).ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
        expect(envVar(firstContainer(worker), 'SWITCHBOARD_GRPC_PORT')).toBeUndefined();
        // What each process loads: the API serves gRPC on its port, the worker opens none.
        expect(loadedConfig(install, 'api').a2a.grpc.port).toBe(50051);
        expect(loadedConfig(install, 'worker').a2a.grpc.port).toBeUndefined();
        expect(servicePort(install, 'grpc')).toEqual({
          name: 'grpc',
          port: 50051,
          targetPort: 'grpc',
          protocol: 'TCP',
          appProtocol: 'kubernetes.io/h2c',
        });
        expect(find(install, 'NetworkPolicy', 'switchboard-api').spec.ingress).toEqual([
          {
            ports: [
              { port: 'http', protocol: 'TCP' },
              { port: 'grpc', protocol: 'TCP' },
            ],
            from: GRPC.networkPolicy.apiFrom,
          },
        ]);
        expect(find(install, 'NetworkPolicy', 'switchboard-worker').spec.ingress ?? []).not.toContainEqual(
          expect.objectContaining({ ports: expect.arrayContaining([expect.objectContaining({ port: 'grpc' })]) }),
        );
        // A card fetched through the Service lists the Service's own host and gRPC port.
        expect(cardAddress(install)).toBe(`switchboard.${NAMESPACE}.svc:${servicePort(install, 'grpc').port}`);
      }
      const lint = helm('lint', '--strict', CHART_DIR, '-f', PRODUCTION_VALUES, '-f', valuesFile('grpc-lint', GRPC));
      expect({ status: lint.status, output: lint.stdout + lint.stderr }).toMatchObject({ status: 0 });
    });

    it('follows grpc.port and grpc.publicAddress; with config.a2a.grpc.tls the Service claims no cleartext HTTP/2', () => {
      // From a values file, as YAML numbers reach the templates (floats).
      const moved = renderChart(
        '-f',
        valuesFile('grpc-moved', { grpc: { enabled: true, port: 9443, publicAddress: 'grpc.example.com:443' } }),
      );
      expect(grpcPort(deployment(moved, 'api'))).toEqual({ name: 'grpc', containerPort: 9443, protocol: 'TCP' });
      expect(servicePort(moved, 'grpc')).toMatchObject({ port: 9443, targetPort: 'grpc' });
      expect(loadedConfig(moved, 'api').a2a.grpc).toMatchObject({ port: 9443, public_address: 'grpc.example.com:443' });
      expect(cardAddress(moved)).toBe('grpc.example.com:443');

      const tls = {
        grpc: { enabled: true },
        config: {
          a2a: {
            grpc: { tls: { cert_file: '/etc/switchboard-tls/tls.crt', key_file: '/etc/switchboard-tls/tls.key' } },
          },
        },
      };
      const withTls = renderChart('-f', valuesFile('grpc-tls', tls));
      expect(servicePort(withTls, 'grpc')).toEqual({ name: 'grpc', port: 50051, targetPort: 'grpc', protocol: 'TCP' });
      expect(loadedConfig(withTls, 'api').a2a.grpc).toEqual({ port: 50051, tls: tls.config.a2a.grpc.tls });
      const istio = renderChart('-f', valuesFile('grpc-tls', tls), '--set', 'grpc.appProtocol=grpc');
      expect(servicePort(istio, 'grpc').appProtocol).toBe('grpc');
    });

    it('refuses the ways around it, saying what to set', () => {
      expect(failedRender('--set', 'config.a2a.grpc.port=50051')).toContain(
        'config.a2a.grpc.port: set by the chart; use grpc.enabled and grpc.port',
      );
      expect(
        failedRender('--set', 'grpc.enabled=true', '--set', 'config.a2a.grpc.public_address=grpc.example.com:443'),
      ).toContain('config.a2a.grpc.public_address: set by the chart; use grpc.publicAddress');
      expect(
        failedRender('--set', 'extraEnv[0].name=SWITCHBOARD_GRPC_PORT', '--set-string', 'extraEnv[0].value=50051'),
      ).toContain('SWITCHBOARD_GRPC_PORT: the chart sets this environment variable itself');
      expect(failedRender('--set', 'grpc.enabled=true', '--set', 'grpc.port=8080')).toContain(
        "grpc.port: 8080 is the pods' HTTP port",
      );
      expect(failedRender('--set', 'grpc.publicAddress=grpc.example.com:443')).toContain(
        'grpc.publicAddress: needs grpc.enabled',
      );
    });

    it('NOTES.txt says where gRPC is and that an ingress needs HTTP/2 end to end; nothing when off', () => {
      const notes = (...args: string[]) => {
        const result = helm('install', 'switchboard', CHART_DIR, '--dry-run=client', '--namespace', NAMESPACE, ...args);
        expect(result.status).toBe(0);
        return result.stdout.slice(result.stdout.indexOf('NOTES:'));
      };
      const on = notes('--set', 'grpc.enabled=true');
      expect(on).toContain('A2A over gRPC (cleartext HTTP/2)');
      expect(on).toContain(`kubectl -n ${NAMESPACE} port-forward svc/switchboard 50051:50051`);
      expect(on).toContain('gRPC through a proxy needs HTTP/2 end to end');
      expect(notes('--set', 'grpc.enabled=true', '--set', 'grpc.publicAddress=grpc.example.com:443')).toContain(
        'Agent cards list it as grpc.example.com:443.',
      );
      expect(notes()).not.toMatch(/grpc/i);
    });

    it("the README's gRPC Ingress is a valid Ingress to the Service's grpc port, with ingress-nginx's GRPC backend and TLS", () => {
      const readme = readFileSync(join(CHART_DIR, 'README.md'), 'utf8');
      const block = [...readme.matchAll(/^( *)```yaml\n([\s\S]*?)^\1```/gm)].find((match) =>
        match[2].includes('backend-protocol'),
      );
      expect(block).toBeDefined();
      const ingress = parseYaml(block![2].replace(new RegExp(`^${block![1]}`, 'gm'), '')) as Manifest;
      expect(schemaProblems([ingress])).toEqual([]);
      expect(ingress.metadata.annotations).toMatchObject({ 'nginx.ingress.kubernetes.io/backend-protocol': 'GRPC' });
      expect(ingress.spec.tls).toHaveLength(1);
      const install = renderChart('--set', 'grpc.enabled=true');
      const backend = ingress.spec.rules[0].http.paths[0].backend.service;
      const ports = install
        .filter((m) => m.kind === 'Service' && m.metadata.name === backend.name)
        .flatMap((service) => service.spec.ports.map((port: Json) => port.name));
      expect(ports).toContain(backend.port.name);
      expect(backend.port.name).toBe('grpc');
    });
  });

  describe('access tokens (config.auth.oauth) and a private CA (trustedCa)', () => {
    const issuer = { issuer: 'https://login.internal.example.com/realms/agents', scopes: ['a2a'] };
    const oauth = (values: object) => loadedConfig(renderChart('-f', valuesFile('oauth', values)), 'api').auth.oauth;

    it('render the issuers into the config Switchboard loads, the resource being <publicUrl>/mcp unless given', () => {
      const values = {
        publicUrl: 'https://switchboard.example.com',
        config: { auth: { oauth: { issuers: [issuer], clock_skew_secs: 30 } } },
      };
      expect(oauth(values)).toEqual({
        resource: 'https://switchboard.example.com/mcp',
        issuers: [{ ...issuer, audiences: [] }],
        algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
        clock_skew_secs: 30,
        introspection_cache_secs: 60,
      });
      const given = {
        ...values,
        config: {
          auth: { oauth: { resource: 'https://agents.example.com/mcp', issuers: [issuer], algorithms: ['ES256'] } },
        },
      };
      expect(oauth(given)).toMatchObject({
        resource: 'https://agents.example.com/mcp',
        algorithms: ['ES256'],
        clock_skew_secs: 60,
      });
      expect(
        oauth({
          ingress: {
            enabled: true,
            hosts: [{ host: 'agents.example.com', paths: [{ path: '/', pathType: 'Prefix' }] }],
          },
          config: { auth: { oauth: { issuers: [issuer] } } },
        }),
      ).toMatchObject({
        resource: 'http://agents.example.com/mcp',
      });
      expect(loadedConfig(installs.trial, 'api').auth.oauth).toBeUndefined();
    });

    it.each([
      ['configMap', { configMap: { name: 'corporate-ca', items: [{ key: 'ca.crt', path: 'ca.pem' }] } }],
      ['secret', { secret: { secretName: 'corporate-ca', items: [{ key: 'ca.crt', path: 'ca.pem' }] } }],
    ] as const)("mount trustedCa's key from a %s as the API's and workers' NODE_EXTRA_CA_CERTS", (source, volume) => {
      const rendered = renderChart('--set', `trustedCa.${source}=corporate-ca`);
      expect(schemaProblems(rendered)).toEqual([]);
      for (const component of ['api', 'worker'] as const) {
        const container = firstContainer(deployment(rendered, component));
        expect(envVar(container, 'NODE_EXTRA_CA_CERTS')).toEqual({
          name: 'NODE_EXTRA_CA_CERTS',
          value: '/etc/switchboard-ca/ca.pem',
        });
        expect(container.volumeMounts).toContainEqual({
          name: 'trusted-ca',
          mountPath: '/etc/switchboard-ca',
          readOnly: true,
        });
        expect(podSpec(deployment(rendered, component)).volumes).toContainEqual({ name: 'trusted-ca', ...volume });
      }
      const bundle = renderChart('--set', `trustedCa.${source}=corporate-ca`, '--set', 'trustedCa.key=bundle.pem');
      expect(JSON.stringify(podSpec(deployment(bundle, 'api')).volumes)).toContain(
        '{"key":"bundle.pem","path":"ca.pem"}',
      );
    });

    it('tracing: the OTLP settings as the standard OTEL_* variables of the API and worker pods, none when off', () => {
      const traced = renderChart(
        '--set',
        'tracing.enabled=true',
        '--set',
        'tracing.endpoint=http://otel-collector.observability:4318',
        '--set-json',
        'tracing.sampleRatio=0.25',
        '--set',
        'tracing.traceUrl=http://jaeger:16686/trace/{trace_id}',
      );
      for (const component of ['api', 'worker'] as const) {
        expect(containerEnv(traced, firstContainer(deployment(traced, component)))).toMatchObject({
          SWITCHBOARD_TRACING_ENABLED: 'true',
          OTEL_SERVICE_NAME: 'switchboard',
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability:4318',
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.25',
          SWITCHBOARD_TRACE_URL: 'http://jaeger:16686/trace/{trace_id}',
        });
      }
      const untraced = Object.values(installs).flatMap((install) =>
        install.filter((m) => m.kind === 'Deployment' && m.metadata.name.startsWith('switchboard-')),
      );
      for (const workload of untraced)
        expect(firstContainer(workload).env.filter((e: Json) => /^(OTEL_|SWITCHBOARD_TRAC)/.test(e.name))).toEqual([]);
      expect(failedRender('--set', 'tracing.protocol=grpc')).toContain("at '/tracing/protocol'");
    });

    it('mount no CA and set no NODE_EXTRA_CA_CERTS without trustedCa', () => {
      for (const workload of Object.values(installs).flatMap((install) =>
        install.filter((m) => m.kind === 'Deployment' && m.metadata.name.startsWith('switchboard-')),
      )) {
        expect(envVar(firstContainer(workload), 'NODE_EXTRA_CA_CERTS')).toBeUndefined();
        expect(podSpec(workload).volumes.map((v: Json) => v.name)).not.toContain('trusted-ca');
      }
    });
  });

  describe('the console after an install (operator keys)', () => {
    const notes = (...args: string[]) => {
      const result = helm('install', 'switchboard', CHART_DIR, '--dry-run=client', '--namespace', NAMESPACE, ...args);
      expect(result.status).toBe(0);
      return result.stdout.slice(result.stdout.indexOf('NOTES:'));
    };

    it("makes the trial's generated key an operator key: the API loads it with admin rights, and it is the only key", () => {
      const generated = kubernetes.decoded(GENERATED_SECRET)['admin-keys'];
      expect(loadedConfig(installs.trial, 'api').auth.api_keys).toEqual([
        { name: 'admin', key: generated.slice('admin='.length), admin: true },
      ]);
    });

    it("loads secrets.adminKeys and existingSecret's admin-keys as operator keys beside the clients' keys, which get no admin rights", () => {
      expect(
        loadedConfig(installs.secretsInValues, 'api').auth.api_keys.filter(
          (entry) => typeof entry !== 'string' && !entry.metrics_only,
        ),
      ).toEqual([
        { name: 'ops', key: SECRETS.apiKey },
        { name: 'ci', key: 'LEAK-API-KEY-0002-abcdef' },
        { name: 'root', key: SECRETS.adminKey, admin: true },
      ]);
      expect(loadedConfig(installs.production, 'api').auth.api_keys).toContainEqual({
        name: 'root',
        key: EXISTING_SECRET['admin-keys'].slice('root='.length),
        admin: true,
      });
      // admin-keys is optional in a Secret of yours made before it existed: the pods still start.
      const ref = envVar(firstContainer(deployment(installs.production, 'api')), 'SWITCHBOARD_ADMIN_KEYS').valueFrom
        .secretKeyRef;
      expect(ref).toEqual({ name: 'switchboard-secrets', key: 'admin-keys', optional: true });
      // Workers serve no console and get no operator key.
      expect(envVar(firstContainer(deployment(installs.trial, 'worker')), 'SWITCHBOARD_ADMIN_KEYS')).toBeUndefined();
    });

    it('NOTES.txt says where the console is and how to read its key', () => {
      const trial = notes();
      expect(trial).toContain(
        `kubectl -n ${NAMESPACE} get secret ${GENERATED_SECRET} -o jsonpath='{.data.admin-keys}' | base64 -d`,
      );
      expect(trial).toContain('http://localhost:8080/console');
      expect(notes('--set', 'secrets.existingSecret=switchboard-secrets')).toContain(
        'the admin-keys key of your Secret switchboard-secrets',
      );
      expect(notes('--set', 'secrets.adminKeys=root=given-admin-key-0123456789')).toContain(
        `kubectl -n ${NAMESPACE} get secret switchboard -o jsonpath='{.data.admin-keys}'`,
      );
      expect(
        notes('--set', 'adminIngress.enabled=true', '--set', 'adminIngress.host=ops.internal.example.com'),
      ).toContain('http://ops.internal.example.com/console');
    });
  });

  describe('the ingress and the operator paths (ingress.*, adminIngress.*)', () => {
    const PUBLIC_HOST = 'switchboard.example.com';
    const ADMIN_HOST = 'switchboard-admin.internal.example.com';
    const OPERATOR_PATH = /^\/(console|api\/admin)(\/|$)|^\/metrics$/;
    const PROBE = /^\/(healthz|readyz)$/;

    /** Whether an Ingress of the install routes `path` on `host` to the API, by the Ingress spec's rules (Prefix matches whole path elements). */
    const routes = (install: Manifest[], host: string, path: string) =>
      install
        .filter((m) => m.kind === 'Ingress')
        .flatMap((ingress) => ingress.spec.rules)
        .filter((rule: Json) => rule.host === host)
        .flatMap((rule: Json) => rule.http.paths)
        .some((route: Json) => {
          expect(route.backend).toEqual({ service: { name: 'switchboard', port: { name: 'http' } } });
          const prefix = route.path.replace(/\/$/, '');
          return route.pathType === 'Exact'
            ? path === route.path
            : prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
        });

    /** Every path the API serves with this configuration, made concrete: the routes the app itself registers. */
    async function servedPaths(toml: string): Promise<string[]> {
      const app = await createHttpApp(testConfig({ SWITCHBOARD_CONFIG: writeConfigFile(toml) }));
      try {
        const recorded = recordRoutes(app);
        await app.listen({ host: '127.0.0.1', port: 0 });
        return [...new Set(callableRoutes(recorded).map((route) => samplePath(route.url)))];
      } finally {
        await app.close();
      }
    }

    /** Each path: where it is published. */
    const placement = (install: Manifest[], paths: string[]) =>
      paths.map((path) => ({
        path,
        public: routes(install, PUBLIC_HOST, path),
        admin: routes(install, ADMIN_HOST, path),
      }));
    const expected = (paths: string[]) =>
      paths.map((path) => ({
        path,
        public: !OPERATOR_PATH.test(path) && !PROBE.test(path),
        admin: OPERATOR_PATH.test(path),
      }));

    it('publishes on the public host every path the API serves but the console, the admin API, /metrics and the probes, which go on the admin host alone', async () => {
      const paths = await servedPaths('');
      expect(paths).toEqual(
        expect.arrayContaining([
          '/a2a',
          '/mcp',
          '/.well-known/agent-card.json',
          '/console',
          '/console/login',
          '/api/admin/overview',
          '/metrics',
        ]),
      );
      const install = renderChart(
        '-f',
        valuesFile('ingresses', { ingress: { enabled: true }, adminIngress: { enabled: true, host: ADMIN_HOST } }),
      );
      expect(schemaProblems(install)).toEqual([]);
      expect(placement(install, paths)).toEqual(expected(paths));
      // The console's assets and the admin API's streams live under those prefixes.
      expect(routes(install, ADMIN_HOST, '/console/assets/console.js')).toBe(true);
      expect(routes(install, PUBLIC_HOST, '/console/assets/console.js')).toBe(false);
      expect(routes(install, PUBLIC_HOST, '/.well-known/oauth-protected-resource/mcp')).toBe(true);
    });

    it('follows config.a2a.listen_path and rest_path', async () => {
      const a2a = { listen_path: '/agents', rest_path: '/rest' };
      const paths = await servedPaths(`[a2a]\nlisten_path = "${a2a.listen_path}"\nrest_path = "${a2a.rest_path}"\n`);
      expect(paths).toEqual(expect.arrayContaining(['/agents', '/agents/agents/x/agent-card.json', '/rest/x']));
      const install = renderChart('-f', valuesFile('ingress-paths', { ingress: { enabled: true }, config: { a2a } }));
      expect(placement(install, paths)).toEqual(expected(paths).map((where) => ({ ...where, admin: false })));
    });

    it('keeps the operator paths off the public hosts by default: without adminIngress they are published nowhere; the production values put them on an internal host', () => {
      const publicOnly = renderChart('--set', 'ingress.enabled=true');
      expect(publicOnly.filter((m) => m.kind === 'Ingress').map((m) => m.metadata.name)).toEqual(['switchboard']);
      for (const install of [publicOnly, installs.production]) {
        for (const path of ['/console', '/console/login', '/api/admin/overview', '/metrics'])
          expect({ path, routed: routes(install, PUBLIC_HOST, path) }).toEqual({ path, routed: false });
        expect(routes(install, PUBLIC_HOST, '/a2a')).toBe(true);
      }
      for (const path of ['/console', '/api/admin/overview', '/metrics'])
        expect(routes(installs.production, 'switchboard.internal.example.com', path)).toBe(true);
      expect(find(installs.production, 'Ingress', 'switchboard-admin').spec.ingressClassName).toBe('nginx-internal');
    });

    it('routes the paths a host lists as given, and NOTES.txt says when those publish the operator paths', () => {
      const everything = {
        ingress: { enabled: true, hosts: [{ host: PUBLIC_HOST, paths: [{ path: '/', pathType: 'Prefix' }] }] },
      };
      const install = renderChart('-f', valuesFile('ingress-everything', everything));
      expect(routes(install, PUBLIC_HOST, '/console')).toBe(true);
      const result = helm(
        'install',
        'switchboard',
        CHART_DIR,
        '--dry-run=client',
        '--namespace',
        NAMESPACE,
        '-f',
        valuesFile('ingress-everything-notes', everything),
      );
      expect(result.stdout.slice(result.stdout.indexOf('NOTES:'))).toContain(
        `ingress.hosts: ${PUBLIC_HOST} routes / to the API: the console, the admin API and /metrics are public there`,
      );
      const safe = helm(
        'install',
        'switchboard',
        CHART_DIR,
        '--dry-run=client',
        '--namespace',
        NAMESPACE,
        '--set',
        'ingress.enabled=true',
      );
      expect(safe.stdout).not.toContain('are public there');
    });

    it('gives the admin Ingress its own class, TLS and annotations, over the streaming ones (the admin API streams task changes)', () => {
      const values = {
        ingress: { enabled: true, className: 'nginx-public' },
        adminIngress: {
          enabled: true,
          host: ADMIN_HOST,
          className: 'nginx-internal',
          annotations: { 'nginx.ingress.kubernetes.io/whitelist-source-range': '10.0.0.0/8' },
          tls: [{ hosts: [ADMIN_HOST], secretName: 'admin-tls' }],
        },
      };
      const admin = find(renderChart('-f', valuesFile('admin-ingress', values)), 'Ingress', 'switchboard-admin');
      expect(admin.spec.ingressClassName).toBe('nginx-internal');
      expect(admin.spec.tls).toEqual(values.adminIngress.tls);
      expect(admin.metadata.annotations).toMatchObject({
        'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
        'nginx.ingress.kubernetes.io/whitelist-source-range': '10.0.0.0/8',
      });
      const inherited = find(
        renderChart(
          '--set',
          'adminIngress.enabled=true',
          '--set',
          `adminIngress.host=${ADMIN_HOST}`,
          '--set',
          'ingress.className=nginx',
        ),
        'Ingress',
        'switchboard-admin',
      );
      expect(inherited.spec.ingressClassName).toBe('nginx');
    });

    it('refuses what would publish the operator paths by accident or nowhere, saying what to set', () => {
      expect(failedRender('--set', 'adminIngress.enabled=true')).toContain(
        'adminIngress.host: the host the operator paths are served on',
      );
      expect(failedRender('--set', 'ingress.enabled=true', '--set', 'config.a2a.listen_path=/')).toContain(
        'ingress.hosts: config.a2a.listen_path is /, so the client paths would be every path, the operator paths included',
      );
      expect(
        failedRender(
          '--set',
          'adminIngress.enabled=true',
          '--set',
          `adminIngress.host=${PUBLIC_HOST}`,
          '--set',
          'ingress.enabled=true',
        ),
      ).toContain(`adminIngress.host: ${PUBLIC_HOST} is also a host of ingress.hosts`);
    });
  });

  describe('egress network policy (networkPolicy.egress)', () => {
    const egressPolicies = (install: Manifest[]) =>
      install.filter((m) => m.kind === 'NetworkPolicy' && m.spec.policyTypes.includes('Egress'));
    /** Whether a policy's pod selector selects pods labelled so. */
    const selects = (policy: Manifest, labels: Record<string, string>) => {
      const { matchLabels = {}, matchExpressions = [] } = policy.spec.podSelector;
      return (
        Object.entries(matchLabels).every(([key, value]) => labels[key] === value) &&
        matchExpressions.every((e: Json) => e.operator === 'In' && e.values.includes(labels[e.key]))
      );
    };
    const podLabels = (install: Manifest[], kind: string, name: string) =>
      find(install, kind, name).spec.template.metadata.labels;
    const DNS = {
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
      podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
    };
    const DNS_PORTS = [
      { port: 53, protocol: 'UDP' },
      { port: 53, protocol: 'TCP' },
    ];
    const HTTPS_OUT = [
      {
        to: [{ ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] } }],
        ports: [{ port: 443, protocol: 'TCP' }],
      },
    ];
    const MCP_SERVERS = [
      {
        to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'mcp' } } }],
        ports: [{ port: 3001, protocol: 'TCP' }],
      },
    ];

    it('is off by default, networkPolicy.enabled included: nothing restricts egress', () => {
      for (const install of [...Object.values(installs), renderChart('--set', 'networkPolicy.enabled=true')])
        expect(egressPolicies(install)).toEqual([]);
    });

    it('lets the API, worker and migration pods reach the cluster DNS, the in-chart stores and the rules given, and nothing else; not the secret generator, which calls the Kubernetes API', () => {
      const install = renderChart(
        '-f',
        valuesFile('egress', {
          networkPolicy: { enabled: true, egress: { enabled: true, rules: [...HTTPS_OUT, ...MCP_SERVERS] } },
        }),
      );
      expect(schemaProblems(install)).toEqual([]);
      const [policy, ...others] = egressPolicies(install);
      expect(others).toEqual([]);
      expect(policy.metadata.name).toBe('switchboard-egress');
      expect(policy.spec.policyTypes).toEqual(['Egress']);
      for (const [kind, name] of [
        ['Deployment', 'switchboard-api'],
        ['Deployment', 'switchboard-worker'],
        ['Job', 'switchboard-migrate'],
      ])
        expect(selects(policy, podLabels(install, kind, name))).toBe(true);
      expect(selects(policy, podLabels(install, 'Job', 'switchboard-secret-generator'))).toBe(false);
      expect(selects(policy, podLabels(install, 'StatefulSet', 'switchboard-postgresql'))).toBe(false);
      const store = (component: string, port: number) => ({
        to: [
          {
            podSelector: {
              matchLabels: {
                'app.kubernetes.io/name': 'switchboard',
                'app.kubernetes.io/instance': 'switchboard',
                'app.kubernetes.io/component': component,
              },
            },
          },
        ],
        ports: [{ port, protocol: 'TCP' }],
      });
      expect(policy.spec.egress).toEqual([
        { to: [DNS], ports: DNS_PORTS },
        store('postgresql', 5432),
        store('redis', 6379),
        ...HTTPS_OUT,
        ...MCP_SERVERS,
      ]);
      // The in-chart stores' own pods do select as the policy's peers say.
      expect(podLabels(install, 'StatefulSet', 'switchboard-postgresql')).toMatchObject(
        policy.spec.egress[1].to[0].podSelector.matchLabels,
      );
      expect(podLabels(install, 'StatefulSet', 'switchboard-redis')).toMatchObject(
        policy.spec.egress[2].to[0].podSelector.matchLabels,
      );
    });

    it('reaches external stores and the OTLP receiver at the peers and ports given', () => {
      const values = {
        ...SECRETS_IN_VALUES,
        tracing: { enabled: true, endpoint: 'http://otel-collector.observability:4318' },
        networkPolicy: {
          enabled: true,
          egress: {
            enabled: true,
            dns: [{ ipBlock: { cidr: '169.254.20.10/32' } }],
            postgresql: { to: [{ ipBlock: { cidr: '10.0.3.0/24' } }] },
            redis: { to: [{ ipBlock: { cidr: '10.0.4.0/24' } }], port: 6380 },
            otlp: { to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'observability' } } }] },
            rules: HTTPS_OUT,
          },
        },
      };
      const install = renderChart('-f', valuesFile('egress-external', values));
      expect(schemaProblems(install)).toEqual([]);
      const { egress } = values.networkPolicy;
      expect(egressPolicies(install)[0].spec.egress).toEqual([
        { to: egress.dns, ports: DNS_PORTS },
        { to: egress.postgresql.to, ports: [{ port: 5432, protocol: 'TCP' }] },
        { to: egress.redis.to, ports: [{ port: 6380, protocol: 'TCP' }] },
        { to: egress.otlp.to, ports: [{ port: 4318, protocol: 'TCP' }] },
        ...HTTPS_OUT,
      ]);
    });

    it('refuses a policy that would cut Switchboard off its stores or its traces, saying what to set', () => {
      const external = [
        '--set',
        'postgresql.deploy=false',
        '--set',
        'postgresql.externalUrl=postgresql://u:p@db.internal:5432/x',
        '--set',
        'redis.deploy=false',
        '--set',
        'redis.externalUrl=redis://redis.internal:6379',
      ];
      const egress = ['--set', 'networkPolicy.enabled=true', '--set', 'networkPolicy.egress.enabled=true'];
      const refused = failedRender(...external, ...egress);
      expect(refused).toContain('networkPolicy.egress.postgresql.to: Switchboard reaches an external Postgres');
      expect(refused).toContain('networkPolicy.egress.redis.to: Switchboard reaches an external Redis');
      expect(
        failedRender(...egress, '--set', 'tracing.enabled=true', '--set', 'tracing.endpoint=http://otel:4318'),
      ).toContain('networkPolicy.egress.otlp.to: traces go to tracing.endpoint');
      expect(failedRender('--set', 'networkPolicy.egress.enabled=true')).toContain(
        'networkPolicy.egress.enabled: needs networkPolicy.enabled',
      );
    });
  });

  describe('operating the chart', () => {
    it('runs the image `npm run image` tags by default (switchboard:<version>, pulled if not present), or the one given', () => {
      const appVersion = parseYaml(readFileSync(join(CHART_DIR, 'Chart.yaml'), 'utf8')).appVersion;
      expect(appVersion).toBe(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version);
      const images = (install: Manifest[]) =>
        install
          .filter((m) => ['Deployment', 'Job'].includes(m.kind))
          .flatMap((m) => [...(podSpec(m).initContainers ?? []), ...podSpec(m).containers])
          .map((c: Json) => [c.image, c.imagePullPolicy]);
      expect(new Set(images(installs.trial).map(String))).toEqual(
        new Set([String([`switchboard:${appVersion}`, 'IfNotPresent'])]),
      );
      const pushed = renderChart(
        '--set',
        'image.repository=registry.example.com/team/switchboard',
        '--set',
        'image.tag=0.2.0',
      );
      expect(new Set(images(pushed).map(String))).toEqual(
        new Set([String(['registry.example.com/team/switchboard:0.2.0', 'IfNotPresent'])]),
      );
    });

    it('puts commonLabels on every object and every pod, and in no selector', () => {
      const commonLabels = { team: 'agents', 'example.com/cost-centre': 'c-42' };
      const everything = {
        commonLabels,
        ingress: { enabled: true },
        adminIngress: { enabled: true, host: 'switchboard-admin.internal.example.com' },
        serviceMonitor: { enabled: true },
        networkPolicy: { enabled: true, redisFrom: [{ namespaceSelector: {} }], egress: { enabled: true } },
        api: { autoscaling: { enabled: true } },
        worker: { keda: { enabled: true } },
        grafanaDashboard: { enabled: true },
        prometheusRule: { enabled: true },
      };
      const rendered = [
        ...renderChart('-f', valuesFile('labels-trial', everything)),
        ...renderChart(
          '-f',
          valuesFile('labels-values', {
            ...SECRETS_IN_VALUES,
            commonLabels,
            worker: { autoscaling: { enabled: true } },
          }),
        ),
      ];
      expect(new Set(rendered.map((m) => m.kind))).toEqual(
        new Set(
          Object.values(installs)
            .flat()
            .map((m) => m.kind),
        ),
      );
      for (const manifest of rendered) {
        expect({ object: `${manifest.kind}/${manifest.metadata.name}`, labels: manifest.metadata.labels }).toEqual({
          object: expect.any(String),
          labels: expect.objectContaining(commonLabels),
        });
        const template = manifest.spec?.template;
        if (template)
          expect({ pod: manifest.metadata.name, labels: template.metadata.labels }).toEqual({
            pod: expect.any(String),
            labels: expect.objectContaining(commonLabels),
          });
        const selector =
          manifest.spec?.selector?.matchLabels ?? (manifest.kind === 'Service' ? manifest.spec.selector : undefined);
        if (selector) expect(Object.keys(selector)).not.toContain('team');
      }
      const generator = rendered.find((m) => m.kind === 'Job' && m.metadata.name === 'switchboard-secret-generator')!;
      expect(JSON.parse(envVar(firstContainer(generator), 'LABELS').value)).toMatchObject(commonLabels);
      // A pod's own labels are more specific, and win (once, not as a duplicate key).
      const own = renderChart('--set', 'commonLabels.team=agents', '--set', 'api.podLabels.team=api-team');
      expect(deployment(own, 'api').spec.template.metadata.labels.team).toBe('api-team');
      expect(deployment(own, 'worker').spec.template.metadata.labels.team).toBe('agents');
    });

    it('sets priorityClassName, revisionHistoryLimit and extra containers where they are given, and nothing where not', () => {
      const init = { name: 'wait-for-vault', image: 'example.com/vault-wait:1' };
      const sidecar = { name: 'proxy', image: 'example.com/proxy:1' };
      const given = renderChart(
        '-f',
        valuesFile('pod-extras', {
          revisionHistoryLimit: 3,
          api: { priorityClassName: 'switchboard-critical', extraInitContainers: [init], extraContainers: [sidecar] },
          worker: { priorityClassName: 'switchboard-batch', extraContainers: [{ ...sidecar, name: 'worker-proxy' }] },
        }),
      );
      const [api, worker] = [podSpec(deployment(given, 'api')), podSpec(deployment(given, 'worker'))];
      expect([api.priorityClassName, worker.priorityClassName]).toEqual(['switchboard-critical', 'switchboard-batch']);
      // The hook Jobs run where and as the API does.
      expect(podSpec(find(given, 'Job', 'switchboard-migrate')).priorityClassName).toBe('switchboard-critical');
      expect(podSpec(find(given, 'Job', 'switchboard-secret-generator')).priorityClassName).toBe(
        'switchboard-critical',
      );
      expect(api.initContainers.map((c: Json) => c.name)).toEqual(['migrate', 'wait-for-vault']);
      expect(api.initContainers[1]).toEqual(init);
      expect(worker.initContainers.map((c: Json) => c.name)).toEqual(['migrate']);
      expect(api.containers.map((c: Json) => c.name)).toEqual(['api', 'proxy']);
      expect(api.containers[1]).toEqual(sidecar);
      expect(worker.containers.map((c: Json) => c.name)).toEqual(['worker', 'worker-proxy']);
      for (const workload of given.filter((m) => ['Deployment', 'StatefulSet'].includes(m.kind)))
        expect(workload.spec.revisionHistoryLimit).toBe(3);
      // Without the chart's migration init container, the given one stands alone.
      const initOnly = renderChart(
        '-f',
        PRODUCTION_VALUES,
        '--set-json',
        `worker.extraInitContainers=${JSON.stringify([init])}`,
      );
      expect(podSpec(deployment(initOnly, 'worker')).initContainers).toEqual([init]);
      expect(podSpec(deployment(initOnly, 'api')).initContainers).toBeUndefined();
      const plain = podSpec(deployment(installs.trial, 'api'));
      expect([
        plain.priorityClassName,
        plain.containers.length,
        deployment(installs.trial, 'api').spec.revisionHistoryLimit,
      ]).toEqual([undefined, 1, 10]);
    });
  });
});
